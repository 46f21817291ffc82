-- 0012_reserved: this number belongs to the operator controls (halt, pause, resume), written on
-- another branch. It stands here, empty, only so that 0013 can follow without a gap; when the two
-- branches meet, the controls' own 0012 replaces this file.
SELECT 1;
