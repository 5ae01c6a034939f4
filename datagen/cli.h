/* `sennight datagen`: the command line of the training data generator (docs/datagen.md). */
#ifndef DATAGEN_CLI_H
#define DATAGEN_CLI_H

int datagen_main(int argc, char **argv);
extern const char datagen_usage[];

#endif
