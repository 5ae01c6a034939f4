/* The session as the page reads it (docs/gui.md#http-api): the STATE, the analysis lines, an engine's
 * status event and the review. */
#ifndef SESSION_JSON_H
#define SESSION_JSON_H

#include <jansson.h>

struct session;
struct engine;

/* STATE: the shown position, its legal moves, the moves, the result, seats, clocks, variations,
 * material; its version orders the STATEs. */
json_t *session_json_state(struct session *s);
/* {"seat", "depth", "lines": [{"multipv", "depth", "score", "pv", "nodes", "nps"}...]} */
json_t *session_json_analysis(const struct session *s);
/* {"seat" (null: the analysis engine), "status", "message"} */
json_t *session_json_engine(const struct engine *e, int seat);
/* The review's progress and results, {"state": "none"} without one. */
json_t *session_json_review(struct session *s);

#endif
