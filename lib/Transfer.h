//===--- Transfer.h - What each fact does to the state -----------*- C++
//-*-===//

#ifndef STREAMSAFE_LIB_TRANSFER_H
#define STREAMSAFE_LIB_TRANSFER_H

#include "lib/Facts.h"
#include "lib/Findings.h"
#include "lib/StreamState.h"
#include "lib/StreamTable.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class ParentMap;
class Stmt;
} // namespace clang

namespace clang {
class LambdaExpr;
}

namespace streamsafe {

struct ApiConfig;

/// Per-function tables and the transfer function over facts.
class Transfer {
public:
  /// Runs a callable's body (a thread or executor task) from \p Entry and
  /// returns its exit state; set by the engine.
  using BodyRunner = std::function<StreamState(
      const clang::LambdaExpr &, const StreamState &, std::vector<Finding> *)>;

  Transfer(clang::ASTContext &Ctx, const clang::FunctionDecl &FD,
           SiteTable &Sites, const clang::ParentMap &Parents,
           const ApiConfig &Config);
  void setBodyRunner(BodyRunner R) { RunBody = std::move(R); }
  /// Findings due at the function's exit (unrestored current streams).
  void atExit(const StreamState &S, SiteId End, std::vector<Finding> &Out);

  /// The state at function entry: the caller's current stream, tensor
  /// parameters ready on it.
  StreamState entryState();
  /// Applies \p F. When \p Out is set, findings are appended to it.
  void apply(const Fact &F, StreamState &S, std::vector<Finding> *Out);
  /// Drops storages no variable refers to any more (temporaries).
  void collectGarbage(StreamState &S);
  /// State entries visited by sweeps since the last call (the engine's
  /// work budget counts them).
  unsigned takeWork() { return std::exchange(Work, 0); }
  /// The storage a tensor variable names after paths that bound it to
  /// different storages meet.
  StorageId phiFor(const clang::VarDecl *V);

  const StreamTable &streams() const { return Streams; }
  void dump(const Fact &F, const StreamState &S, llvm::raw_ostream &OS) const;

private:
  std::optional<StorageId> storageOf(const clang::Expr *E,
                                     const StreamState &S);
  StorageId storageFor(const void *Key, llvm::StringRef Name, bool Decl);
  StreamId streamOf(const clang::Expr *E, const StreamState &S);
  StreamId factStream(const Fact &F, const StreamState &S);
  std::string tensorName(const clang::Expr *E, std::optional<StorageId> Id);
  const clang::VarDecl *eventVar(const clang::Expr *E) const;

  void access(const Fact &F, StreamState &S, std::vector<Finding> *Out);
  void bind(const Fact &F, StreamState &S, std::vector<Finding> *Out);
  void bindVar(StreamState &S, const clang::VarDecl *V, StorageId Id);
  /// Whether a variable (one that owns a reference, with \p Owning) names
  /// storage \p Id in \p S.
  bool held(const StreamState &S, StorageId Id, bool Owning) const;
  void release(StorageId Id, SiteId At, StreamState &S,
               std::vector<Finding> *Out);
  void recordEvent(const Fact &F, StreamState &S);
  void waitEvent(const Fact &F, StreamState &S, std::vector<Finding> *Out);
  void spawn(const Fact &F, StreamState &S, std::vector<Finding> *Out);
  void hostAccess(const Fact &F, StreamState &S, std::vector<Finding> *Out);
  void threadCheck(const Fact &F, const StreamState &S, bool Query,
                   std::vector<Finding> *Out);
  void completeWhere(StreamState &S,
                     llvm::function_ref<bool(StorageId, const Access &)> Done);
  AccessInfo info(const Access &A) const;
  bool recordedLaterInLoop(const Fact &F, const clang::VarDecl *Event) const;
  bool pointerStoredForLater(const clang::Stmt *Call) const;
  const clang::Stmt *statementOf(const clang::Stmt *S) const;
  bool inScopeAt(const clang::VarDecl *V, const clang::Stmt *At) const;

  clang::ASTContext &Ctx;
  const clang::FunctionDecl &FD;
  SiteTable &Sites;
  const clang::ParentMap &Parents;
  const ApiConfig &Config;
  BodyRunner RunBody;
  StreamTable Streams;
  struct StorageInfo {
    std::string Name;
    const void *Key;
    bool IsDecl;
    const clang::VarDecl *NameVar; ///< the variable the name comes from
    /// Every variable ever bound to it: held() asks only these.
    llvm::SmallVector<const clang::VarDecl *, 2> Binders;
  };
  std::vector<StorageInfo> Storages;
  llvm::DenseMap<const void *, StorageId> StorageByKey;
  SiteId EntrySite;
  unsigned Work = 0;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_TRANSFER_H
