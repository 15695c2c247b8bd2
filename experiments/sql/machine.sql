-- machine.sql -- the machine a report is about (experiments/report.sh): the one
-- with uuid @uuid, or, when @uuid is NULL, the one with the most measurements.
-- Output: id|uuid|name|backend|driver|runtime|measurements, where driver and
-- runtime are CUDA versions as "13.0" ('-' when unknown, e.g. the CPU backend).
SELECT m.id, m.uuid, m.name, m.backend,
       CASE WHEN m.driver_version > 0
            THEN printf('%d.%d', m.driver_version / 1000, (m.driver_version % 1000) / 10) ELSE '-' END,
       CASE WHEN m.runtime_version > 0
            THEN printf('%d.%d', m.runtime_version / 1000, (m.runtime_version % 1000) / 10) ELSE '-' END,
       (SELECT count(*) FROM measurements x WHERE x.machine_id = m.id) AS cnt
FROM machines m
WHERE @uuid IS NULL OR m.uuid = @uuid
ORDER BY cnt DESC, m.id
LIMIT 1;
