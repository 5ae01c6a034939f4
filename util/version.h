/* The build's version: `git describe --always --dirty` when it was built from a git checkout. */
#ifndef VERSION_H
#define VERSION_H

extern const char sennight_version[];

#endif
