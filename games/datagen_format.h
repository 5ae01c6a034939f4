/* The training data format (docs/datagen.md): fixed-size little-endian records, each naming its
 * variant by fingerprint, with no header, so that files and shards concatenate into a valid file. */
#ifndef DATAGEN_FORMAT_H
#define DATAGEN_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../rules/move.h"
#include "../rules/setup.h"

enum {
    DATAGEN_RECORD_SIZE = 160,
    DATAGEN_MAX_PIECES = 96,    /* pieces a record holds */
    DATAGEN_MAX_CELLS = 224,    /* cells the occupancy bits cover */
    DATAGEN_MAX_ARMIES = 3,     /* armies whose result a record holds (two- and three-player games) */
};

/* One position of a game with its search score and the game's result. */
struct datagen_record {
    const struct variant *v;
    struct setup s;             /* the position; halfmove saturates at 255, fullmove at 65535 */
    move_t move;                /* the search's best move, the one played */
    int score;                  /* centipawns from the mover's view; mates as the search scores them */
    int ply;                    /* plies played from the game's start position; saturates at 65535 */
    int wdl;                    /* the mover's result: 2 alone in first place, 1 first with others, 0 not first */
    int den, points[MAX_PLAYERS];   /* army p scored points[p] / den; they sum to den */
    int place[MAX_PLAYERS];     /* army p's placement, 1 = first (ties share it); 0 beyond the variant's armies */
};

/* The mover's wdl from the placements. */
int datagen_wdl(const int place[MAX_PLAYERS], int nplayers, int side);
/* False (nothing written) if the position has more than DATAGEN_MAX_PIECES pieces. */
bool datagen_encode(const struct datagen_record *r, unsigned char out[DATAGEN_RECORD_SIZE]);
/* Reads one record, its variant found among the registered ones by fingerprint; false with one line
 * in err naming the first bad field. */
bool datagen_decode(const unsigned char in[DATAGEN_RECORD_SIZE], struct datagen_record *r, char *err, size_t errlen);

/* Reading a file record by record. */
struct datagen_reader {
    FILE *f;
    char path[1024];
    uint64_t index;             /* records read so far */
};

bool datagen_open(struct datagen_reader *rd, const char *path, char *err, size_t errlen);
/* 1: the next record is in *r; 0: the file ended; -1: err is "<path>: record <n>: <why>" (a damaged
 * field, or a record cut short). */
int datagen_next(struct datagen_reader *rd, struct datagen_record *r, char *err, size_t errlen);
void datagen_close(struct datagen_reader *rd);

#endif
