/* Writing numbers the same way whatever locale the host program chose: a writer switches
 * the calling thread (not the process: uselocale, not setlocale) to the C numeric locale,
 * so that 0.5 is written "0.5" and not "0,5", and gives the thread its locale back. */
#ifndef DLSCHED_CORE_LOCALE_H
#define DLSCHED_CORE_LOCALE_H

#include <locale.h>

#include "core/internal.h"

typedef struct dls__c_numeric {
    locale_t c_numeric, caller;
} dls__c_numeric;

/* Switches the calling thread to the C numeric locale. Returns 0, or -1 when out of
 * memory (nothing changed). */
DLS__HIDDEN int dls__c_numeric_enter(dls__c_numeric *h);

/* Gives the thread the locale it had before dls__c_numeric_enter(). */
DLS__HIDDEN void dls__c_numeric_leave(dls__c_numeric *h);

#endif /* DLSCHED_CORE_LOCALE_H */
