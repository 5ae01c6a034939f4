/* The build's version, passed by the Makefile (SENNIGHT_VERSION); builds from outside git say so. */
#include "version.h"

#ifndef SENNIGHT_VERSION
#define SENNIGHT_VERSION "unversioned"
#endif

const char sennight_version[] = SENNIGHT_VERSION;
