/* The engines that seats may use. */
#include "engine_list.h"

static const struct gui_engine *list;
static int count;

void engine_list_set(const struct gui_engine *engines, int n)
{
    list = engines;
    count = n;
}

int engine_list_count(void)
{
    return count;
}

const struct gui_engine *engine_list_get(int id)
{
    return &list[id];
}

json_t *engine_list_json(void)
{
    json_t *engines = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(engines, json_pack("{s:i, s:s}", "id", i, "name", list[i].name));
    return engines;
}
