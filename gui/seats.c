/* The tokens of a game's creator and seats, and the one check that every route changing a game asks. */
#include "seats.h"

#include <string.h>
#include <sys/random.h>

static bool required;

void seats_require_tokens(bool on)
{
    required = on;
}

bool seats_tokens_required(void)
{
    return required;
}

bool seat_token_new(char token[SEAT_TOKEN_LEN + 1])
{
    unsigned char bytes[SEAT_TOKEN_BYTES];
    size_t got = 0;
    while (got < sizeof bytes) {
        ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < SEAT_TOKEN_BYTES; i++) {
        token[2 * i] = hex[bytes[i] >> 4];
        token[2 * i + 1] = hex[bytes[i] & 15];
    }
    token[SEAT_TOKEN_LEN] = 0;
    return true;
}

/* Every byte of a full-length token is compared whatever the others are, so the answer's timing does
 * not tell a guesser how much of a token was right. Lengths are public: tokens all have one. */
bool seat_token_equal(const char *a, const char *b)
{
    if (!a || !b || strlen(a) != SEAT_TOKEN_LEN || strlen(b) != SEAT_TOKEN_LEN)
        return false;
    volatile unsigned char diff = 0;
    for (int i = 0; i < SEAT_TOKEN_LEN; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

bool seat_keys_init(struct seat_keys *k, int nseats, const bool *human)
{
    memset(k, 0, sizeof *k);
    k->nseats = nseats;
    if (!seat_token_new(k->creator))
        return false;
    for (int s = 0; s < nseats; s++)
        if (human[s] && !seat_token_new(k->seat[s]))
            return false;
    return true;
}

enum seat_verdict seat_keys_allow(const struct seat_keys *k, const char *token, int seat)
{
    if (!required)
        return SEAT_ALLOWED;
    bool creator = seat_token_equal(token, k->creator);
    if (seat == SEAT_CREATOR)
        return creator ? SEAT_ALLOWED : SEAT_WATCHER;
    if (seat < 0 || seat >= k->nseats)
        return SEAT_WATCHER;
    if (seat_token_equal(token, k->seat[seat]))
        return SEAT_ALLOWED;
    if (creator)
        return k->joined[seat] ? SEAT_TAKEN : SEAT_ALLOWED;
    for (int s = 0; s < k->nseats; s++)
        if (seat_token_equal(token, k->seat[s]))
            return SEAT_OTHER;
    return SEAT_WATCHER;
}

bool seat_keys_join(struct seat_keys *k, int seat, const char *token, char fresh[SEAT_TOKEN_LEN + 1])
{
    if (seat < 0 || seat >= k->nseats || !seat_token_equal(token, k->seat[seat]) || !seat_token_new(fresh))
        return false;
    memcpy(k->seat[seat], fresh, SEAT_TOKEN_LEN + 1);
    k->joined[seat] = true;
    return true;
}
