/* Files: reading one whole; writing one whole or not at all, through a temporary file in the same
 * directory renamed into place, so a failed write never leaves a damaged file and the output may name
 * an input; and finding the files shipped with the program. */
#ifndef FILE_H
#define FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The regular file at path of at most max bytes, read whole into a fresh buffer with a 0 byte after its
 * *len bytes (len may be NULL); the caller frees it. NULL on failure, with err '<path>: <why>'
 * (the system's message, 'not a regular file', 'larger than <max> bytes', 'read error'). */
char *file_read(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* write fills the stream and says whether it succeeded; on failure err is '<path>: cannot write: <why>'. */
bool file_replace(const char *path, bool (*write)(FILE *f, const void *ctx), const void *ctx, char *err, size_t errlen);

/* A shipped file, <relative> in the directory of the running executable, else in the current
 * directory: its path, or false if neither has one. */
bool file_find_shipped(const char *relative, char *path, size_t len);

#endif
