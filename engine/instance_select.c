/* The width-independent side of the instances: setting them up and choosing one for a variant. */
#include "instance.h"

void engine_init(void)
{
    engine_ops_128.init();
    engine_ops_256.init();
}

const struct engine_ops *instance_for(const struct variant *v, bool wide)
{
    return wide || v->geo.ncells > 128 ? &engine_ops_256 : &engine_ops_128;
}
