/* `sennight gui`: the browser front-end (docs/gui.md). */
#ifndef GUI_H
#define GUI_H

/* The arguments after "gui"; returns the exit status. */
int gui_main(int argc, char **argv);
extern const char gui_usage[];

#endif
