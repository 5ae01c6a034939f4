/* `sennight datagen`: the command line of the training data generator (docs/datagen.md). */
#ifndef DATAGEN_COMMAND_H
#define DATAGEN_COMMAND_H

int datagen_main(int argc, char **argv);
extern const char datagen_usage[];

#endif
