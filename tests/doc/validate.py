#!/usr/bin/env python3
"""Validates JSON documents against dlsched's JSON Schemas (doc/schema/); tests/doc/schemas.sh
runs it. Each schema is first checked against its own meta-schema (check_schema).

    validate.py SCHEMA FILE...
        every FILE must be valid; the first error of each invalid one is printed.
    validate.py --reject SCHEMA FILE FIELD
        FILE must be invalid, and the most relevant error (jsonschema's best_match) must
        name FIELD (or one of FIELD|FIELD...) in "PATH KEYWORD KEY": its path in the
        document (/processors/2/limit), the schema keyword that failed (type, required,
        ...) and, for "required" and "additionalProperties", the message naming the key.
    validate.py --strict SCHEMA FILE
        FILE must be valid, and no longer valid with an unknown key added to its root
        object, nor with one added to the first object of its "processors".
    validate.py --accept-only SCHEMA FILE...
        every FILE must be valid for the schema: files that only the reader refuses.

Exit status 0 when every check holds, 1 when one fails, 77 when jsonschema is missing."""
import json
import os
import sys

try:
    from jsonschema.exceptions import best_match
    from jsonschema.validators import validator_for
except ImportError as e:
    print(f"SKIP: the python3 module jsonschema is missing ({e})")
    sys.exit(77)


def load_validator(path):
    """The validator of the schema at path; a "$ref" to another schema of its folder
    (evaluate-measured.schema.json refers to schedule.schema.json) is resolved from the
    folder, never fetched."""
    folder = os.path.dirname(os.path.abspath(path))
    store = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                other = json.load(f)
            store[other.get("$id", name)] = other
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = validator_for(schema)
    cls.check_schema(schema)
    try:  # jsonschema 4.18 and later
        from referencing import Registry, Resource
    except ImportError:  # 4.17 and earlier (Debian 12 has 4.10)
        from jsonschema.validators import RefResolver
        return cls(schema, resolver=RefResolver.from_schema(schema, store=store))
    registry = Registry().with_resources(
        (uri, Resource.from_contents(s)) for uri, s in store.items())
    return cls(schema, registry=registry)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def where(err):
    return "/" + "/".join(str(p) for p in err.absolute_path)


def main(argv):
    if len(argv) >= 2 and argv[1] == "--reject":
        _, _, schema, doc, field = argv
        v = load_validator(schema)
        err = best_match(v.iter_errors(load(doc)))
        if err is None:
            print(f"{doc}: valid for {schema}, but it should be refused (at {field})")
            return 1
        text = f"{where(err)}: {err.message}"
        # the message names a key for these keywords; for the others it quotes the value
        named = err.message if err.validator in ("required", "additionalProperties") else ""
        said = f"{where(err)} {err.validator} {named}"
        if not any(f in said for f in field.split("|")):
            print(f"{doc}: refused, but not at {field}: {text}")
            return 1
        return 0
    if len(argv) >= 2 and argv[1] == "--strict":
        _, _, schema, doc = argv
        v = load_validator(schema)
        d = load(doc)
        err = best_match(v.iter_errors(d))
        if err is not None:
            print(f"{doc}: {where(err)}: {err.message}")
            return 1
        bad = 0
        targets = [d] + [p for p in d.get("processors", [])[:1] if isinstance(p, dict)]
        for o in targets:
            o["no_such_key"] = 1
            if v.is_valid(d):
                print(f"{doc}: still valid with an unknown key in {sorted(o)}")
                bad += 1
            del o["no_such_key"]
        return 1 if bad else 0
    if len(argv) < 2:
        print(__doc__)
        return 2
    if argv[1] == "--accept-only":
        argv = argv[1:]
    v = load_validator(argv[1])
    bad = 0
    for doc in argv[2:]:
        err = best_match(v.iter_errors(load(doc)))
        if err is not None:
            print(f"{doc}: {where(err)}: {err.message}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
