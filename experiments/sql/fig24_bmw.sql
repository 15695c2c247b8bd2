-- fig24_bmw.sql -- Figure 24 (paper 6.6): BMW's fully evaluated elements over
-- Dr. Top-k's |D| + |C| per (dist, k), from table bmw_workload (a later schema
-- migration), machine @machine.  Output: dist|k|ratio
SELECT dist, k, CAST(bmw_evaluated AS REAL) / dr_workload FROM bmw_workload
WHERE machine_id = @machine AND dr_workload > 0
ORDER BY dist, k;
