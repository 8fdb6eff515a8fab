"""The claims database: tables, engine, the lean DB-API path of the cycle, and the glue that
runs the pure rules over stored rows. The only code in ``claims`` that talks SQL."""
