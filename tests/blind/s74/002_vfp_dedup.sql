* Visual FoxPro 9 free tables for the clinic back-office bridge.
* Run from the bridge's setup program (SET SAFETY OFF; SET EXCLUSIVE ON).

CREATE TABLE dedup_visits FREE ( ;
    idem_key C(64) PRIMARY KEY, ;
    org_id C(36) NOT NULL, ;
    user_id C(36) NOT NULL, ;
    route C(64) NOT NULL, ;
    response M, ;
    created T ;
)

CREATE TABLE dedup_charges FREE ( ;
    org_id C(36) NOT NULL, ;
    user_id C(36) NOT NULL, ;
    route C(64) NOT NULL, ;
    idem_key C(64) NOT NULL, ;
    response M, ;
    created T, ;
    PRIMARY KEY org_id + user_id + route + idem_key TAG pk_charges ;
)

CREATE TABLE visit_audit FREE ( ;
    audit_id I PRIMARY KEY, ;
    idem_key C(64), ;
    org_id C(36), ;
    note M ;
)
