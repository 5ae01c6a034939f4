/* `sennight tune`: the command line of the tuner (docs/eval.md). */
#ifndef TUNE_COMMAND_H
#define TUNE_COMMAND_H

int tune_main(int argc, char **argv);
extern const char tune_usage[];

#endif
