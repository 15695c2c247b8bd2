-- tab3_transactions.sql -- Table 3 (paper 6.4): global load and store
-- transactions (or sectors) per algorithm, plain and Dr.-assisted, |V| = 2^30,
-- k = 2^7, from table ncu_measurements (ncu runs on the GPU machine; the table
-- comes with a later schema migration), machine @machine.
-- Output (header first): algorithm|loads|stores
SELECT 'algorithm', 'global loads', 'global stores'
UNION ALL
SELECT * FROM (
    SELECT algorithm, loads, stores FROM ncu_measurements
    WHERE machine_id = @machine ORDER BY algorithm
);
