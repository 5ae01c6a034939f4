/* A variant's tables at one width, the handle struct engine_ops passes around: the move generator's,
 * which positions point to, and the evaluation's beside them (width-dependent). */
#ifndef ENGINE_TABLES_H
#define ENGINE_TABLES_H

#include "../../eval/eval.h"
#include "../../movegen/tables.h"

struct engine_tables {
    struct tables *move;
    struct eval_tables eval;
};

#endif
