#include "instance.h"

const struct engine_ops *instance_for(const struct variant *v, bool wide)
{
    return wide || v->geo.ncells > 128 ? &engine_ops_256 : &engine_ops_128;
}
