-- Every published prompt version, immutable; its files; the labels that
-- point at versions; and a counter every change moves (servers hear of a
-- change through NOTIFY; the counter tells a reconnecting one what it missed).
CREATE TABLE prompt_versions (
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    path TEXT NOT NULL,
    body TEXT NOT NULL,
    digest TEXT NOT NULL,
    author TEXT NOT NULL,
    published_at TEXT NOT NULL,
    PRIMARY KEY (name, version)
);

CREATE TABLE prompt_files (
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    path TEXT NOT NULL,
    bytes BYTEA NOT NULL,
    PRIMARY KEY (name, version, path),
    FOREIGN KEY (name, version) REFERENCES prompt_versions (name, version)
);

CREATE TABLE prompt_labels (
    label TEXT NOT NULL,
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    moved_by TEXT NOT NULL,
    moved_at TEXT NOT NULL,
    PRIMARY KEY (label, name),
    FOREIGN KEY (name, version) REFERENCES prompt_versions (name, version)
);

CREATE TABLE registry_changes (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    counter BIGINT NOT NULL
);

INSERT INTO registry_changes (id, counter) VALUES (1, 0);
