/* Terminal play: a human against the engine, the board drawn after every move (docs/play.md). */
#ifndef TERMINAL_PLAY_H
#define TERMINAL_PLAY_H

/* `sennight play [options]`; returns the exit status. */
int play_main(int argc, char **argv);
extern const char play_usage[];

#endif
