#!/bin/sh
# Reads every #include "..." of the C sources and fails on an include from one folder into another
# that docs/layers.txt does not allow, on an include of an engine header other than its façade
# (engine/engine.h) from outside engine/, on a table whose lower layers do not point down or that lets
# an application include another, and on a source under a width/ folder that engine/width/instance.c
# does not include, or a .c file included anywhere else (docs/architecture.md). Run by `make layers`
# and `make test`.
cd "$(dirname "$0")/.." || exit 2
table=docs/layers.txt
find . -path ./build -prune -o -name node_modules -prune -o -name '*.[ch]' -print | sed 's|^\./||' | LC_ALL=C sort |
awk -v table="$table" -v instance=engine/width/instance.c '
function top(path) { sub(/\/.*/, "", path); return path }
# dir/inc with "." and ".." resolved; "" when it leaves the tree.
function resolve(dir, inc,    n, parts, out, k, i, path) {
    n = split(dir "/" inc, parts, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "" || parts[i] == ".")
            continue
        if (parts[i] == "..") {
            if (k == 0)
                return ""
            k--
        } else
            out[++k] = parts[i]
    }
    path = out[1]
    for (i = 2; i <= k; i++)
        path = path "/" out[i]
    return path
}
BEGIN {
    bad = 0
    while ((getline line < table) > 0) {
        sub(/#.*/, "", line)
        n = split(line, f, /[ \t]+/)
        if (f[1] == "")
            continue
        if (f[1] == "lower:") {
            for (i = 2; i <= n; i++)
                rank[f[i]] = i - 1
            continue
        }
        if (f[1] == "facade:" || f[1] == "inside:" || f[1] == "dispatch:") {
            for (i = 2; i <= n; i++)
                if (f[1] == "inside:")
                    inside[f[i]] = 1
                else if (f[1] == "dispatch:")
                    dispatch[f[i]] = 1
                else {
                    facade[f[i]] = 1
                    behind[top(f[i])] = 1
                }
            continue
        }
        from = f[1]
        sub(/:$/, "", from)
        listed[from] = 1
        for (i = 2; i <= n; i++)
            edge[from, f[i]] = 1
    }
    close(table)
    for (key in edge) {
        split(key, e, SUBSEP)
        if ((e[1] in rank) && !((e[2] in rank) && rank[e[2]] < rank[e[1]])) {
            printf "%s: %s may include %s, which is not a lower layer below it\n", table, e[1], e[2]
            bad = 1
        }
        if (!(e[1] in rank) && !(e[2] in rank) && !(e[1] in inside) && !(e[1] in dispatch)) {
            printf "%s: %s may include %s, but applications are siblings\n", table, e[1], e[2]
            bad = 1
        }
    }
}
{
    file = $0
    dir = file
    sub(/\/[^\/]*$/, "", dir)
    if (dir == file)
        dir = "."
    from = top(file)
    if (file ~ /\/width\/[^\/]*\.c$/ && file != instance)
        width[file] = 1
    ln = 0
    while ((getline line < file) > 0) {
        ln++
        if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/)
            continue
        inc = line
        sub(/^[^"]*"/, "", inc)
        sub(/".*/, "", inc)
        path = resolve(dir, inc)
        if (path == "") {
            printf "%s:%d: #include \"%s\" leaves the tree\n", file, ln, inc
            bad = 1
            continue
        }
        if (path ~ /\.c$/) {
            included[path] = 1
            if (file != instance || path !~ /\/width\//) {
                printf "%s:%d: #include \"%s\": only %s includes sources, those under width/\n", file, ln, inc,
                       instance
                bad = 1
            }
        }
        to = top(path)
        if (path !~ /\// || to == from)
            continue
        if (!(from in listed)) {
            printf "%s:%d: folder %s is not in %s\n", file, ln, from, table
            bad = 1
        } else if (!((from, to) in edge)) {
            printf "%s:%d: %s includes %s (%s), an edge %s does not allow\n", file, ln, from, to, inc, table
            bad = 1
        } else if ((to in behind) && !(from in inside) && !(path in facade)) {
            printf "%s:%d: %s includes %s, inside the façade of %s (%s)\n", file, ln, from, path, to, table
            bad = 1
        }
    }
    close(file)
}
END {
    for (file in width)
        if (!(file in included)) {
            printf "%s: under width/, but %s does not include it\n", file, instance
            bad = 1
        }
    exit bad
}
'
