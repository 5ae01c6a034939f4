/* libFuzzer harness of the UCI command loop (protocol/uci*.c): the input's
 * lines are one session of an engine made once and reset between inputs (uci_reset), fed in-process
 * as a GUI's would be, and the session must end cleanly. Lines that
 * would run long or reach outside the process are dropped first: any line containing (in any case) "go"
 * (searches, perft), "bench", "check", "hash", "thread", "path" or "bookfile" (files, big tables). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../protocol/uci.h"
#include "fuzz.h"

static bool line_allowed(const char *line, size_t len)
{
    static const char *const refused[] = { "go", "bench", "check", "hash", "thread", "path", "bookfile" };
    char *lower = malloc(len + 1);
    if (!lower)
        abort();
    /* A NUL would end the search early; the loop refuses such a line anyway. */
    for (size_t i = 0; i < len; i++)
        lower[i] = line[i] ? (char)tolower((unsigned char)line[i]) : ' ';
    lower[len] = 0;
    bool allowed = true;
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        allowed &= !strstr(lower, refused[i]);
    free(lower);
    return allowed;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct uci *engine;
    char err[512];
    /* The loop's replies are not checked here; the protocol tests read them. */
    if (!engine && (!freopen("/dev/null", "w", stdout) || !(engine = uci_new(err, sizeof err))))
        abort();
    char *kept = malloc(size + 1);
    size_t n = 0;
    if (!kept)
        abort();
    for (size_t at = 0; at < size;) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - data) - at + 1 : size - at;
        if (line_allowed((const char *)data + at, len)) {
            memcpy(kept + n, data + at, len);
            n += len;
        }
        at += len;
    }
    FILE *in = fmemopen(kept, n ? n : 1, "r");
    if (!in)
        abort();
    if (!n)
        kept[0] = '\n';
    uci_reset(engine);
    if (!uci_session(engine, in))
        abort();
    fclose(in);
    free(kept);
    return 0;
}
