/* The search of three and four players (docs/variants.md, three-player rules), used while three
 * or more armies are on the board; once two are left, the game is a two-player one and search.c takes
 * over. Every score here is from the root player's view: its nodes maximise, the opponents' minimise.
 *
 * Paranoid: the opponents are a coalition against the root player, each ply searched in turn.
 * Best-reply search (Schadd & Winands 2011), in its BRS+ form (Esser et al. 2013): between two root
 * moves only the single strongest opponent move is searched, chosen among all the opponents' moves;
 * the other opponents play the first move of their move ordering, so every line stays a legal game
 * with the real turn order. Included by engine/width/instance.c after search.c, once per width. */

/* What an opponent's node does under best-reply search. */
enum multi_node {
    MULTI_PLAIN,   /* every move of the side to move (the root player's nodes; every paranoid node) */
    MULTI_FIRST,   /* an opponent before whom no opponent of this round searched: its moves, each
                    * answered by the later opponents' ordered moves, and its ordered move, after
                    * which the next opponent has the choice */
    MULTI_FORCED,  /* an opponent after the one that searched: it plays its ordered move */
    MULTI_REPLY,   /* the last opponent, none before it having searched: every move */
};

/* Entries differ with the root player (the coalition) and the node kind from the two-player
 * search's, which score for the side to move: their keys are kept apart. */
static uint64_t multi_key(const struct worker *w, enum multi_node kind)
{
    return position_key(w->pos) ^ (uint64_t)(w->root_player + 1) * 0x9e3779b97f4a7c15ull
           ^ (uint64_t)(kind + 1) * 0xc2b2ae3d27d4eb4full;
}

static int multi_search(struct worker *w, int alpha, int beta, int depth, int ply, enum multi_node kind);
static int multi_qsearch(struct worker *w, int alpha, int beta, int ply);

/* A node of the three-player tree: resolves the turn (armies leave, the mated side leaves), scores
 * the ends of the game, hands a game down to two armies to the two-player search, and searches. */
static int multi_visit(struct worker *w, int alpha, int beta, int depth, int ply, enum multi_node kind)
{
    struct position *pos = w->pos;
    enum turn_end end;
    /* Whether the player the move left to move is in check: a re-search of this child reads it again. */
    const bool moved_in_check = w->stack[ply].in_check;
    int removed = turn_resolve(pos, &end, false, moved_in_check), score;
    if (removed)
        w->stack[ply].in_check = position_in_check(pos);
    if (pos_royal_cell(pos, w->root_player) == CELL_NONE)
        score = -SCORE_MATE + ply;
    else if (end == TURN_LAST_ARMY)
        score = SCORE_MATE - ply;
    else if (end == TURN_STALEMATE)
        score = 0;
    else if (armies_left(pos) < 3)
        score = pos->side == w->root_player ? search(w, alpha, beta, depth, ply, true)
                                            : -search(w, -beta, -alpha, depth, ply, true);
    else if (depth <= 0)
        score = multi_qsearch(w, alpha, beta, ply);
    else
        score = multi_search(w, alpha, beta, depth, ply, kind);
    position_unresolve(pos, removed);
    w->stack[ply].in_check = moved_in_check;
    return score;
}

/* Whether the move takes a piece of the player, or promotes. */
static bool takes_from(const struct position *pos, move_t m, int player)
{
    int victim = pos->board[m & MOVE_EP ? pos->st[pos->ply].ep_victim : move_to(m)];
    return move_promo(m) >= 0 || (victim && piece_colour(victim) == player);
}

/* Captures only, each side free to stand on the evaluation unless in check. The opponents' captures
 * of each other's pieces do not serve their coalition against the root player, and would start
 * exchange wars the root player takes no part in: only their captures of its pieces are searched. */
static int multi_qsearch(struct worker *w, int alpha, int beta, int ply)
{
    struct position *pos = w->pos;
    int early;
    if (node_ends(w, ply, w->root_player, &early))
        return early;
    const bool max_node = pos->side == w->root_player, in_check = w->stack[ply].in_check;
    int best = max_node ? -SCORE_INF : SCORE_INF;
    if (!in_check) {
        best = eval_position_as(w->et, pos, &w->sh->weights, &w->pawn_cache, &w->eval_cache, w->memo, w->root_player,
                                alpha, beta);
        if (max_node ? best >= beta : best <= alpha)
            return best;
        if (max_node && best > alpha)
            alpha = best;
        if (!max_node && best < beta)
            beta = best;
    }
    move_t list[MAX_MOVES];
    int scores[MAX_MOVES + PICK_PAD];
    struct exotic_paths late;
    int n = in_check ? movegen_pseudo(pos, list, &late, w->memo) : movegen_pseudo_noisy(pos, list, &late, w->memo);
    score_moves(w, ply, list, scores, n, MOVE_NONE, false, false);
    for (int i = 0; i < n; i++) {
        move_t m = pick_move(w, list, scores, n, i) & ~MOVE_UNTESTED;
        if (!in_check && (!capture_is_good(w, m) || (!max_node && !takes_from(pos, m, w->root_player))))
            continue;
        if (!tried_is_legal(pos, &late, list[i]))
            continue;
        make(w, ply, m);
        int score = multi_visit(w, alpha, beta, 0, ply + 1, MULTI_PLAIN);
        position_unmake(pos, m);
        if (search_stopped(w))
            return 0;
        if (max_node ? score > best : score < best) {
            best = score;
            if (max_node ? score > alpha : score < beta)
                update_pv(w, ply, m);
            if (max_node && score > alpha)
                alpha = score;
            if (!max_node && score < beta)
                beta = score;
            if (alpha >= beta)
                break;
        }
    }
    return best;
}

/* The first move of the side to move's ordering: the table's move, else the best by the move
 * scores (captures by value, killers, history); MOVE_NONE when stalemated. */
static move_t multi_ordered_move(struct worker *w, int ply, enum multi_node kind)
{
    move_t list[MAX_MOVES];
    int scores[MAX_MOVES + PICK_PAD];
    struct tt_hit hit;
    struct exotic_paths late;
    move_t tt_move = tt_probe(w->sh->tt, multi_key(w, kind), &hit) ? hit.move : MOVE_NONE;
    /* The table's move is scored above all others: when legal, it is the one picked, with no list. */
    bool staged = !w->stack[ply].in_check;
    if (tt_move) {
        move_t m = movegen_pseudo_member(w->pos, tt_move, false, &late);
        if (m && tried_is_legal(w->pos, &late, m))
            return tt_move;
        staged &= !m;
    }
    /* Out of check, captures and promotions (the captures-only list, in the same order) score above
     * every quiet move: the first of them the whole list would give is the captures-only list's first.
     * When the first move found is not legal, the next pick depends on the whole list's order, so that
     * list decides. */
    if (staged) {
        int n = movegen_pseudo_noisy(w->pos, list, &late, w->memo);
        if (n) {
            score_moves(w, ply, list, scores, n, tt_move, false, false);
            move_t m = pick_move(w, list, scores, n, 0);
            if (tried_is_legal(w->pos, &late, m))
                return m & ~MOVE_UNTESTED;
        } else {
            /* Every move is quiet: the killers, then the counter move, score above all the others. */
            const move_t first[3] = { w->stack[ply].killers[0], w->stack[ply].killers[1], counter_move(w, ply) };
            for (int k = 0; k < 3; k++) {
                move_t m = first[k] ? movegen_pseudo_member(w->pos, first[k], false, &late) : MOVE_NONE;
                if (m && tried_is_legal(w->pos, &late, m))
                    return first[k];
                if (m)
                    break;
            }
        }
    }
    int n = movegen_pseudo(w->pos, list, &late, w->memo);
    if (!n)
        return MOVE_NONE;
    score_moves(w, ply, list, scores, n, tt_move, false, false);
    for (int i = 0; i < n; i++) {
        move_t m = pick_move(w, list, scores, n, i) & ~MOVE_UNTESTED;
        if (tried_is_legal(w->pos, &late, list[i]))
            return m;
    }
    return MOVE_NONE;
}

/* The kind and depth of the nodes below a node's moves (reply: below a first opponent's ordered move).
 * Best-reply search takes one depth for the opponents' round, at its last opponent. */
static enum multi_node multi_child(const struct worker *w, enum multi_node kind, int depth, bool reply,
                                   int *child_depth)
{
    if (w->sh->search3 == SEARCH3_PARANOID) {
        *child_depth = depth - 1;
        return MULTI_PLAIN;
    }
    int next = pos_next_player(w->pos, w->pos->side);
    bool round_ends = next == w->root_player;
    *child_depth = kind != MULTI_PLAIN && !round_ends ? depth : depth - 1;
    if (kind == MULTI_PLAIN)
        return MULTI_FIRST;
    if (round_ends)
        return MULTI_PLAIN;
    if (reply)
        return pos_next_player(w->pos, next) == w->root_player ? MULTI_REPLY : MULTI_FIRST;
    return MULTI_FORCED;
}

static int multi_search(struct worker *w, int alpha, int beta, int depth, int ply, enum multi_node kind)
{
    struct position *pos = w->pos;
    int early;
    if (node_ends(w, ply, w->root_player, &early))
        return early;
    const bool max_node = pos->side == w->root_player, in_check = w->stack[ply].in_check;
    const int old_alpha = alpha, old_beta = beta;
    uint64_t key = multi_key(w, kind);
    struct tt_hit hit;
    move_t tt_move = MOVE_NONE;
    if (tt_probe(w->sh->tt, key, &hit)) {
        tt_move = hit.move;
        int score = tt_score_from(hit.score, ply);
        if (hit.depth >= depth
            && (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && score >= beta)
                || (hit.bound == BOUND_UPPER && score <= alpha)))
            return score;
    }
    w->stack[ply + 2].killers[0] = w->stack[ply + 2].killers[1] = MOVE_NONE;
    /* No evaluation here for the two-player search below to compare with (improving). */
    w->stack[ply].eval = SCORE_NONE;
    int child_depth, reply_depth;
    enum multi_node child = multi_child(w, kind, depth, false, &child_depth);
    enum multi_node reply_kind = multi_child(w, kind, depth, true, &reply_depth);
    move_t list[MAX_MOVES], quiets[QUIETS_MAX];
    int scores[MAX_MOVES + PICK_PAD];
    int n = 1;
    struct exotic_paths late;
    if (kind == MULTI_FORCED) {
        list[0] = multi_ordered_move(w, ply, kind);
        scores[0] = 0;
        pick_pad(scores, 1);
        n = list[0] != MOVE_NONE;
    } else {
        n = movegen_pseudo(pos, list, &late, w->memo);
        score_moves(w, ply, list, scores, n, tt_move, true, false);
    }
    struct move_tally t = { max_node ? -SCORE_INF : SCORE_INF, 0, 0, MOVE_NONE, quiets };
    /* A first opponent's own moves, then (best-reply search) its ordered move, after which the next
     * opponent chooses. */
    for (int i = 0; i < n + (kind == MULTI_FIRST); i++) {
        bool reply = i == n;
        if (reply && !t.searched)
            break;
        move_t m = reply ? multi_ordered_move(w, ply, kind) : pick_move(w, list, scores, n, i) & ~MOVE_UNTESTED;
        if (!reply && !tried_is_legal(pos, &late, list[i]))
            continue;
        bool quiet = !reply && is_quiet(pos, m);
        bool gives_check = make(w, ply, m);
        enum multi_node next = reply ? reply_kind : child;
        int d = reply ? reply_depth : child_depth, score;
        /* The child's bucket loads while its turn is resolved (make prefetches the two-player key). */
        if (d > 0)
            tt_prefetch(w->sh->tt, multi_key(w, next));
        /* Late quiet moves are searched less deeply first. */
        int r = depth >= LMR_DEPTH && quiet && t.searched >= 2 && !in_check && !gives_check
                    ? reductions[depth < 64 ? depth : 63][t.searched < 64 ? t.searched : 63] : 0;
        r = r > d - 1 ? (d > 1 ? d - 1 : 0) : r;
        if (t.searched == 0) {
            score = multi_visit(w, alpha, beta, d, ply + 1, next);
        } else {
            /* A null window at the bound this node can still move. */
            int lo = max_node ? alpha : beta - 1;
            score = multi_visit(w, lo, lo + 1, d - r, ply + 1, next);
            if (r && (max_node ? score > alpha : score < beta))
                score = multi_visit(w, lo, lo + 1, d, ply + 1, next);
            if (score > alpha && score < beta)
                score = multi_visit(w, alpha, beta, d, ply + 1, next);
        }
        position_unmake(pos, m);
        if (search_stopped(w))
            return 0;
        if (tally_move(w, ply, &t, m, score, quiet, depth, max_node, true, &alpha, &beta))
            break;
    }
    /* Not in check (the turn resolution took a mated side off): a stalemate, a shared draw. */
    if (!t.searched)
        return 0;
    int bound = t.best >= old_beta ? BOUND_LOWER : t.best <= old_alpha ? BOUND_UPPER : BOUND_EXACT;
    tt_store(w->sh->tt, key, t.best_move, tt_score_to(t.best, ply), depth, bound, SCORE_NONE);
    return t.best;
}

/* The kind of node a root move leads to. */
static enum multi_node multi_root_kind(const struct worker *w)
{
    return w->sh->search3 == SEARCH3_BRS ? MULTI_FIRST : MULTI_PLAIN;
}

/* A root move's score: the root player's view is the negamax root's. */
static int multi_root(struct worker *w, int alpha, int beta, int depth)
{
    return multi_visit(w, alpha, beta, depth, 1, multi_root_kind(w));
}

static uint64_t multi_root_key(const struct worker *w)
{
    return multi_key(w, multi_root_kind(w));
}
