/* Reading a file whole; writing one whole or not at all (a temporary file in the same directory, renamed
 * into place); finding shipped files. */
#include "file.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *file_read(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    char *bytes = NULL, too_large[48];
    const char *why = NULL;
    FILE *f = fopen(path, "rb");
    /* fstat on the open file, so the checks and the read see the same file. */
    if (!f || fstat(fileno(f), &st))
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if ((uintmax_t)st.st_size > max || (uintmax_t)st.st_size >= SIZE_MAX) {
        snprintf(too_large, sizeof too_large, "larger than %zu bytes", max);
        why = too_large;
    } else if (!(bytes = malloc((size_t)st.st_size + 1)))
        why = "out of memory";
    else if (fread(bytes, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
        why = "read error";
    if (f)
        fclose(f);
    if (why) {
        snprintf(err, errlen, "%s: %s", path, why);
        free(bytes);
        return NULL;
    }
    bytes[st.st_size] = 0;
    if (len)
        *len = (size_t)st.st_size;
    return bytes;
}

bool file_replace(const char *path, bool (*write)(FILE *f, const void *ctx), const void *ctx, char *err, size_t errlen)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp) {
        snprintf(err, errlen, "%.200s...: path too long", path);
        return false;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return false;
    }
    /* mkstemp makes the file private; ours are as readable as any file the user writes. */
    bool ok = !fchmod(fd, 0644) && write(f, ctx);
    ok = !fclose(f) && ok && !rename(tmp, path);
    if (!ok) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        unlink(tmp);
    }
    return ok;
}

bool file_find_shipped(const char *relative, char *path, size_t len)
{
    char exe[4096], *slash = NULL;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        slash = strrchr(exe, '/');
    }
    if (slash) {
        *slash = 0;
        if ((size_t)snprintf(path, len, "%s/%s", exe, relative) < len && !access(path, F_OK))
            return true;
    }
    return (size_t)snprintf(path, len, "%s", relative) < len && !access(path, F_OK);
}
