/* The C numeric locale around a writer. */
#include <config.h>

#include "core/locale.h"

int dls__c_numeric_enter(dls__c_numeric *h)
{
    h->c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (h->c_numeric == (locale_t)0)
        return -1;
    h->caller = uselocale(h->c_numeric);
    return 0;
}

void dls__c_numeric_leave(dls__c_numeric *h)
{
    uselocale(h->caller);
    freelocale(h->c_numeric);
}
