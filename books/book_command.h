/* `sennight book ...`: building, showing and merging opening books (docs/books.md). */
#ifndef BOOK_COMMAND_H
#define BOOK_COMMAND_H

/* The arguments after `book`; returns the exit status (2: bad usage, 1: failure). */
int book_main(int argc, char **argv);
extern const char book_usage[];

#endif
