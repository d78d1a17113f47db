# src/svg: SVG pictures: text, Gantt charts, speed plots.
libdlsched_core_la_SOURCES += \
	src/svg/gantt.h \
	src/svg/gantt.c \
	src/svg/plot.c \
	src/svg/svg_text.h \
	src/svg/svg_text.c
