-- The sample's events table. A record's position is its global_position, from the table's sequence (CACHE 1, the
-- default): positions have gaps (a rolled-back insert keeps its number) and commit out of order with several writers.
-- unique (stream_id, version) is what turns two appends racing for one version, or a stream another process created
-- since this one's filter last heard, into one success and one retry; its index serves the lookup of a version.
create table if not exists events (
    global_position bigserial primary key,
    stream_id text not null,
    version bigint not null,
    type text not null,
    data jsonb not null,
    unique (stream_id, version));
