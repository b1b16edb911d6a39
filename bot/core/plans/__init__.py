"""The content calendar: plans that order their titles at the times of a rhythm.

A plan is written with /takvim (``making``), summed up and saved (``summary``, shown by its
draft's checkout in the order dialog, ``checkout``), listed with its buttons (``listing``),
and run by ``runner``: the scheduler only ticks a query for due runs; each run is claimed in
the database before it orders, through the purchase path. Its times are its ``Schedule``
(``storage.schedule``), read from what was typed by ``rhythm`` in the bot's zone and put into
words by ``words``.

    MAKING --Onayla--> ACTIVE --run--> ACTIVE ... --last title--> DONE
                        |  ^
     pause, balance,    v  | resume
     lost target      PAUSED            any listed --Sil, Evet, sil--> DELETED
"""
