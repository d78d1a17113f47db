# src/simgrid: a star platform as a SimGrid platform file (XML); no SimGrid needed.
libdlsched_core_la_SOURCES += \
	src/simgrid/simgrid_xml.c
