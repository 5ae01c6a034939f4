/* The page's files (gui/www/), embedded at build time by gui/www_embed.sh. */
#ifndef WWW_H
#define WWW_H

#include <stddef.h>

struct www_file {
    const char *path;           /* "/index.html"; NULL ends the table */
    const char *type;           /* Content-Type */
    const unsigned char *bytes;
    size_t len;
};

extern const struct www_file www_files[];

#endif
