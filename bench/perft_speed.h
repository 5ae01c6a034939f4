/* Perft-speed benchmark: leaf nodes per second (bulk counting, one thread) per variant. */
#ifndef PERFT_SPEED_H
#define PERFT_SPEED_H

int perft_speed(int argc, char **argv);
extern const char perft_speed_usage[];

#endif
