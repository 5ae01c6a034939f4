/* Captured pieces and material per army (material.h). */
#include "material.h"

#include "../eval/values.h"

void material_captures(const struct variant *v, const struct setup *before, const struct setup *after, int mover,
                       unsigned left, int to, struct captures *out)
{
    out->n = 0;
    for (int c = 0; c < v->geo.ncells && out->n < MAX_CAPTURES; c++) {
        int piece = before->piece[c], colour = piece_colour(piece);
        /* The mover's own pieces, and another army's piece still on its cell, were not taken. */
        if (!piece || colour == mover || (after->piece[c] && piece_colour(after->piece[c]) == colour))
            continue;
        if (left >> colour & 1 && c != to)
            continue;
        out->piece[out->n++] = (unsigned char)piece;
    }
}

void material_values(const struct variant *v, const struct setup *position, double *value)
{
    int type_value[MAX_TYPES];
    long long total[MAX_PLAYERS] = { 0 };
    values_of(v, type_value);
    for (int c = 0; c < v->geo.ncells; c++)
        if (position->piece[c])
            total[piece_colour(position->piece[c])] += type_value[piece_type(position->piece[c])];
    for (int p = 0; p < v->nplayers; p++)
        value[p] = (double)total[p] / 100;
}

json_t *material_json(const struct variant *v, const struct setup *position, const double *start)
{
    double value[MAX_PLAYERS];
    material_values(v, position, value);
    json_t *material = json_object();
    for (int p = 0; p < v->nplayers; p++) {
        char letter[2] = { v->colour_letter[p], 0 };
        json_object_set_new(material, letter,
                            json_pack("{s:[], s:f, s:f}", "captured", "value", value[p], "start", start[p]));
    }
    return material;
}

void material_add(const struct variant *v, json_t *material, int army, const struct captures *c)
{
    char letter[2] = { v->colour_letter[army], 0 }, text[SETUP_PIECE_TEXT];
    json_t *list = json_object_get(json_object_get(material, letter), "captured");
    for (int i = 0; list && i < c->n; i++) {
        setup_piece_text(v, c->piece[i], text);
        json_array_append_new(list, json_string(text));
    }
}
