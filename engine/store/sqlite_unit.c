/* SQLite as the engine builds it: the amalgamation (build/third_party/sqlite/sqlite3.c,
** extracted by scripts/install-deps, never committed) compiled through this file, with
** statements the engine never sends left out.
**
** The amalgamation's parser is pre-built, so its grammar actions still call the code
** behind ALTER TABLE, PRAGMA, ANALYZE, virtual tables, triggers, ATTACH/DETACH, VACUUM
** and REINDEX (and CREATE VIEW) whether or not those are compiled. Leaving them out (the SQLITE_OMIT_*
** below) leaves those calls without a definition; this file gives each one after the
** amalgamation, in the same unit (SQLite's internal functions are static here). A
** statement that reaches one is refused with an error ("... is not available in this
** build") and its parse trees are freed, as SQLite does with any failed statement.
** Two of them are not statements but helpers other code shares (sqlite3DbIsNamed: which
** database a name refers to, used by sqlite3_deserialize; sqlite3PagerClearCache); they
** keep their usual behaviour.
**
** The engine's SQL (engine/client, engine/service, engine/store) is plain CREATE TABLE,
** INSERT, SELECT, UPDATE, DELETE and transactions, plus sqlite3_serialize/deserialize.
** It has no subquery and no view: SQLITE_OMIT_SUBQUERY and SQLITE_OMIT_VIEW take the
** query flattener and the subquery code out. A subquery still parses, and apart from
** WHERE EXISTS (refused) what it then does is undefined (one in FROM crashes): engine
** code must not send one.
** The rest of SQLite's options are in CMakeLists.txt (target idemlab_sqlite), which says
** what these took off the WebAssembly module. */

#define SQLITE_OMIT_ALTERTABLE 1
#define SQLITE_OMIT_PRAGMA 1
#define SQLITE_OMIT_ANALYZE 1
#define SQLITE_OMIT_VIRTUALTABLE 1
#define SQLITE_OMIT_TRIGGER 1
#define SQLITE_OMIT_ATTACH 1
#define SQLITE_OMIT_VACUUM 1
#define SQLITE_OMIT_REINDEX 1
#define SQLITE_OMIT_SUBQUERY 1
#define SQLITE_OMIT_VIEW 1

/* Without triggers the amalgamation declares none of the trigger functions its parser
** calls, so they are declared here (by struct tag, before SQLite names the types) under
** names of this file's own. */
struct Parse; struct Token; struct IdList; struct SrcList; struct Expr; struct ExprList;
struct Select; struct Upsert; struct TriggerStep; struct sqlite3;
static void idemlab_begin_trigger(struct Parse *, struct Token *, struct Token *, int, int,
                                  struct IdList *, struct SrcList *, struct Expr *, int, int);
static void idemlab_finish_trigger(struct Parse *, struct TriggerStep *, struct Token *);
static void idemlab_drop_trigger(struct Parse *, struct SrcList *, int);
static void idemlab_delete_trigger_step(struct sqlite3 *, struct TriggerStep *);
static struct TriggerStep *idemlab_trigger_select_step(struct sqlite3 *, struct Select *,
                                                       const char *, const char *);
static struct TriggerStep *idemlab_trigger_insert_step(struct Parse *, struct SrcList *,
                                                       struct IdList *, struct Select *,
                                                       unsigned char, struct Upsert *,
                                                       const char *, const char *);
static struct TriggerStep *idemlab_trigger_update_step(struct Parse *, struct SrcList *,
                                                       struct SrcList *, struct ExprList *,
                                                       struct Expr *, unsigned char,
                                                       const char *, const char *);
static struct TriggerStep *idemlab_trigger_delete_step(struct Parse *, struct SrcList *,
                                                       struct Expr *, const char *,
                                                       const char *);
#define sqlite3BeginTrigger idemlab_begin_trigger
#define sqlite3FinishTrigger idemlab_finish_trigger
#define sqlite3DropTrigger idemlab_drop_trigger
#define sqlite3DeleteTriggerStep idemlab_delete_trigger_step
#define sqlite3TriggerSelectStep idemlab_trigger_select_step
#define sqlite3TriggerInsertStep idemlab_trigger_insert_step
#define sqlite3TriggerUpdateStep idemlab_trigger_update_step
#define sqlite3TriggerDeleteStep idemlab_trigger_delete_step

/* Without subqueries and views, the query flattener goes, and with it the definition of
** a helper that the EXISTS-to-join rewrite still calls: declared here, defined below. */
struct Select;
static void renumberCursors(struct Parse *, struct Select *, int, int *);

#include "sqlite3.c"

static void idemlab_refuse(Parse *pParse, const char *zWhat) {
  sqlite3ErrorMsg(pParse, "%s is not available in this build", zWhat);
}

/* ALTER TABLE */
SQLITE_PRIVATE void sqlite3AlterRenameTable(Parse *p, SrcList *pSrc, Token *pName) {
  (void)pName;
  idemlab_refuse(p, "ALTER TABLE");
  sqlite3SrcListDelete(p->db, pSrc);
}
SQLITE_PRIVATE void sqlite3AlterRenameColumn(Parse *p, SrcList *pSrc, Token *pOld, Token *pNew) {
  (void)pOld; (void)pNew;
  idemlab_refuse(p, "ALTER TABLE");
  sqlite3SrcListDelete(p->db, pSrc);
}
SQLITE_PRIVATE void sqlite3AlterDropColumn(Parse *p, SrcList *pSrc, const Token *pName) {
  (void)pName;
  idemlab_refuse(p, "ALTER TABLE");
  sqlite3SrcListDelete(p->db, pSrc);
}
SQLITE_PRIVATE void sqlite3AlterBeginAddColumn(Parse *p, SrcList *pSrc) {
  idemlab_refuse(p, "ALTER TABLE");
  sqlite3SrcListDelete(p->db, pSrc);
}
SQLITE_PRIVATE void sqlite3AlterFinishAddColumn(Parse *p, Token *pColDef) {
  (void)pColDef;
  idemlab_refuse(p, "ALTER TABLE");
}
SQLITE_PRIVATE void sqlite3AlterAddConstraint(Parse *p, SrcList *pSrc, Token *pFirst, Token *pName,
                                              const char *zCons, int nCons) {
  (void)pFirst; (void)pName; (void)zCons; (void)nCons;
  idemlab_refuse(p, "ALTER TABLE");
  sqlite3SrcListDelete(p->db, pSrc);
}
SQLITE_PRIVATE void sqlite3AlterDropConstraint(Parse *p, SrcList *pSrc, Token *pName, Token *pCons) {
  (void)pName; (void)pCons;
  idemlab_refuse(p, "ALTER TABLE");
  sqlite3SrcListDelete(p->db, pSrc);
}
SQLITE_PRIVATE void sqlite3AlterSetNotNull(Parse *p, SrcList *pSrc, Token *pCol, Token *pFirst) {
  (void)pCol; (void)pFirst;
  idemlab_refuse(p, "ALTER TABLE");
  sqlite3SrcListDelete(p->db, pSrc);
}
/* Only called while renaming (IN_RENAME_OBJECT, never true without ALTER TABLE). */
SQLITE_PRIVATE void sqlite3RenameTokenRemap(Parse *p, const void *pTo, const void *pFrom) {
  (void)p; (void)pTo; (void)pFrom;
}

/* PRAGMA */
SQLITE_PRIVATE void sqlite3Pragma(Parse *p, Token *pId1, Token *pId2, Token *pValue, int minusFlag) {
  (void)pId1; (void)pId2; (void)pValue; (void)minusFlag;
  idemlab_refuse(p, "PRAGMA");
}

/* ANALYZE, REINDEX, VACUUM */
SQLITE_PRIVATE void sqlite3Analyze(Parse *p, Token *pName1, Token *pName2) {
  (void)pName1; (void)pName2;
  idemlab_refuse(p, "ANALYZE");
}
SQLITE_PRIVATE void sqlite3Reindex(Parse *p, Token *pName1, Token *pName2) {
  (void)pName1; (void)pName2;
  idemlab_refuse(p, "REINDEX");
}
SQLITE_PRIVATE void sqlite3Vacuum(Parse *p, Token *pName, Expr *pInto) {
  (void)pName;
  idemlab_refuse(p, "VACUUM");
  sqlite3ExprDelete(p->db, pInto);
}
/* Empties a pager's page cache unless the database is a temporary one (what SQLite's own
** does; it is compiled with VACUUM, and other code calls it). */
SQLITE_PRIVATE void sqlite3PagerClearCache(Pager *pPager) {
  if (pPager->tempFile == 0) pager_reset(pPager);
}

/* CREATE VIRTUAL TABLE */
SQLITE_PRIVATE void sqlite3VtabBeginParse(Parse *p, Token *pName1, Token *pName2, Token *pModule,
                                          int ifNotExists) {
  (void)pName1; (void)pName2; (void)pModule; (void)ifNotExists;
  idemlab_refuse(p, "CREATE VIRTUAL TABLE");
}
SQLITE_PRIVATE void sqlite3VtabFinishParse(Parse *p, Token *pEnd) { (void)p; (void)pEnd; }
SQLITE_PRIVATE void sqlite3VtabArgInit(Parse *p) { (void)p; }
SQLITE_PRIVATE void sqlite3VtabArgExtend(Parse *p, Token *pToken) { (void)p; (void)pToken; }

/* CREATE TRIGGER, DROP TRIGGER and a trigger's steps */
static void idemlab_begin_trigger(Parse *p, Token *pName1, Token *pName2, int tr_tm, int op,
                                        IdList *pColumns, SrcList *pTableName, Expr *pWhen,
                                        int isTemp, int noErr) {
  (void)pName1; (void)pName2; (void)tr_tm; (void)op; (void)isTemp; (void)noErr;
  idemlab_refuse(p, "CREATE TRIGGER");
  sqlite3IdListDelete(p->db, pColumns);
  sqlite3SrcListDelete(p->db, pTableName);
  sqlite3ExprDelete(p->db, pWhen);
}
static void idemlab_finish_trigger(Parse *p, TriggerStep *pStepList, Token *pAll) {
  (void)pAll;
  idemlab_refuse(p, "CREATE TRIGGER");
  sqlite3DeleteTriggerStep(p->db, pStepList);
}
static void idemlab_drop_trigger(Parse *p, SrcList *pName, int noErr) {
  (void)noErr;
  idemlab_refuse(p, "DROP TRIGGER");
  sqlite3SrcListDelete(p->db, pName);
}
/* The step constructors make no step (the statement is refused at CREATE TRIGGER). */
static TriggerStep *idemlab_trigger_select_step(sqlite3 *db, Select *pSelect, const char *zStart,
                                                     const char *zEnd) {
  (void)zStart; (void)zEnd;
  sqlite3SelectDelete(db, pSelect);
  return 0;
}
static TriggerStep *idemlab_trigger_insert_step(Parse *p, SrcList *pTab, IdList *pColumn,
                                                     Select *pSelect, u8 orconf, Upsert *pUpsert,
                                                     const char *zStart, const char *zEnd) {
  (void)orconf; (void)pUpsert; (void)zStart; (void)zEnd;
  idemlab_refuse(p, "CREATE TRIGGER");
  sqlite3SrcListDelete(p->db, pTab);
  sqlite3IdListDelete(p->db, pColumn);
  sqlite3SelectDelete(p->db, pSelect);
  return 0;
}
static TriggerStep *idemlab_trigger_update_step(Parse *p, SrcList *pTab, SrcList *pFrom,
                                                     ExprList *pEList, Expr *pWhere, u8 orconf,
                                                     const char *zStart, const char *zEnd) {
  (void)orconf; (void)zStart; (void)zEnd;
  idemlab_refuse(p, "CREATE TRIGGER");
  sqlite3SrcListDelete(p->db, pTab);
  sqlite3SrcListDelete(p->db, pFrom);
  sqlite3ExprListDelete(p->db, pEList);
  sqlite3ExprDelete(p->db, pWhere);
  return 0;
}
static TriggerStep *idemlab_trigger_delete_step(Parse *p, SrcList *pTab, Expr *pWhere,
                                                     const char *zStart, const char *zEnd) {
  (void)zStart; (void)zEnd;
  idemlab_refuse(p, "CREATE TRIGGER");
  sqlite3SrcListDelete(p->db, pTab);
  sqlite3ExprDelete(p->db, pWhere);
  return 0;
}
/* No step is ever made, so there is none to free. */
static void idemlab_delete_trigger_step(sqlite3 *db, TriggerStep *pStep) {
  (void)db; (void)pStep;
}

/* ATTACH, DETACH */
SQLITE_PRIVATE void sqlite3Attach(Parse *p, Expr *pFilename, Expr *pDbname, Expr *pKey) {
  idemlab_refuse(p, "ATTACH");
  sqlite3ExprDelete(p->db, pFilename);
  sqlite3ExprDelete(p->db, pDbname);
  sqlite3ExprDelete(p->db, pKey);
}
SQLITE_PRIVATE void sqlite3Detach(Parse *p, Expr *pDbname) {
  idemlab_refuse(p, "DETACH");
  sqlite3ExprDelete(p->db, pDbname);
}
/* Whether zName names database iDb of db: its schema name, or "main" for the first. */
SQLITE_PRIVATE int sqlite3DbIsNamed(sqlite3 *db, int iDb, const char *zName) {
  return sqlite3StrICmp(db->aDb[iDb].zDbSName, zName) == 0 ||
         (iDb == 0 && sqlite3StrICmp("main", zName) == 0);
}

/* Subqueries and views (SQLITE_OMIT_SUBQUERY, SQLITE_OMIT_VIEW). A subquery still parses;
** the one place its code is still reached, turning WHERE EXISTS (SELECT ...) into a join,
** refuses it. */
static void renumberCursors(Parse *p, Select *pSel, int iExcept, int *aCsrMap) {
  (void)pSel; (void)iExcept; (void)aCsrMap;
  idemlab_refuse(p, "a subquery");
}
SQLITE_PRIVATE void sqlite3CreateView(Parse *p, Token *pBegin, Token *pName1, Token *pName2,
                                      ExprList *pCNames, Select *pSelect, int isTemp, int noErr) {
  (void)pBegin; (void)pName1; (void)pName2; (void)isTemp; (void)noErr;
  idemlab_refuse(p, "CREATE VIEW");
  sqlite3ExprListDelete(p->db, pCNames);
  sqlite3SelectDelete(p->db, pSelect);
}
/* Copies a FROM clause: SQLite calls it (with views and subqueries left out) for UPDATE ...
** FROM only, which the engine never sends. It fails as an allocation would, and the
** statement with it ("out of memory"). */
SQLITE_PRIVATE SrcList *sqlite3SrcListDup(sqlite3 *db, const SrcList *p, int flags) {
  (void)p; (void)flags;
  sqlite3OomFault(db);
  return 0;
}
