/* The engines that the GUI's seats may use, from the command line (`--engine`; engine 0: this
 * executable). Set once before the server starts, read by every session. */
#ifndef ENGINE_LIST_H
#define ENGINE_LIST_H

#include <jansson.h>

struct gui_engine {
    char name[64];
    char cmd[1024];         /* the program and its arguments, split at spaces */
};

enum { MAX_GUI_ENGINES = 16 };

/* Keeps the list (not copied: it lives as long as the server). */
void engine_list_set(const struct gui_engine *engines, int n);
int engine_list_count(void);
/* Engine id, 0..engine_list_count() - 1. */
const struct gui_engine *engine_list_get(int id);
/* [{"id", "name"}...] */
json_t *engine_list_json(void);

#endif
