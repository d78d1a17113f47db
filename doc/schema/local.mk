# doc/schema/: JSON Schemas of the platform file, of each command's --json output and of the
# documents other programs write for dlsched to read (claims for verify, measured
# timelines), installed in $(pkgdatadir)/schema. tests/doc/schemas.sh checks them.
schemadir = $(pkgdatadir)/schema
dist_schema_DATA = \
	doc/schema/platform.schema.json \
	doc/schema/check.schema.json \
	doc/schema/partition.schema.json \
	doc/schema/schedule.schema.json \
	doc/schema/curve.schema.json \
	doc/schema/evaluate-measured.schema.json \
	doc/schema/installments.schema.json \
	doc/schema/installments-lp.schema.json \
	doc/schema/lu.schema.json \
	doc/schema/crosscheck.schema.json \
	doc/schema/verify.schema.json \
	doc/schema/validate.schema.json \
	doc/schema/import.schema.json \
	doc/schema/bench.schema.json \
	doc/schema/claim.schema.json \
	doc/schema/measured.schema.json \
	doc/schema/simulate.schema.json \
	doc/schema/balance.schema.json
