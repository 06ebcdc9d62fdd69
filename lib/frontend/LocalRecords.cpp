//===--- LocalRecords.cpp - Local structs followed member by member -------===//

#include "lib/frontend/LocalRecords.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace streamsafe {

namespace {

/// The locals of a function that are aggregates holding a tensor, with how
/// often each is named and how often only to name a member.
class RecordLocals : public RecursiveASTVisitor<RecordLocals> {
public:
  explicit RecordLocals(ApiLookup &Table) : Table(Table) {}

  bool VisitVarDecl(VarDecl *V) {
    const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
    if (!RD || V->getType()->isReferenceType() || !RD->hasDefinition())
      return true;
    ++PerRecord[RD->getCanonicalDecl()];
    if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && RD->isAggregate() &&
        llvm::any_of(RD->fields(), [&](const FieldDecl *F) {
          return Table.classify(F->getType()) == ValueClass::Tensor;
        }))
      Candidates.push_back(V);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParens());
        DR && !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()))
      ++MemberOnly[DR->getDecl()];
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    ++Uses[DR->getDecl()];
    return true;
  }

  ApiLookup &Table;
  llvm::SmallVector<const VarDecl *, 2> Candidates;
  llvm::DenseMap<const Decl *, unsigned> PerRecord, Uses, MemberOnly;
};

} // namespace

const RecordDecl *LocalRecords::recordOf(const FunctionDecl *Fn) {
  auto [It, New] = Records.try_emplace(Fn, nullptr);
  if (!New || !Fn || !Fn->getBody())
    return It->second;
  RecordLocals Scan(Table);
  Scan.TraverseStmt(Fn->getBody());
  const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
  for (const VarDecl *V : Scan.Candidates) {
    const CXXRecordDecl *RD =
        V->getType()->getAsCXXRecordDecl()->getCanonicalDecl();
    if (Scan.PerRecord.lookup(RD) != 1 ||
        Scan.Uses.lookup(V) != Scan.MemberOnly.lookup(V) ||
        (Method && Method->getParent()->getCanonicalDecl() == RD))
      continue;
    // The function's only local of its record: its members' variables
    // are then the function's own.
    return It->second = RD;
  }
  return nullptr;
}

bool LocalRecords::followed(const VarDecl *V, const FunctionDecl *Fn) {
  const RecordDecl *RD = recordOf(Fn);
  const CXXRecordDecl *Of = V->getType()->getAsCXXRecordDecl();
  return RD && Of && !V->getType()->isReferenceType() && V->hasLocalStorage() &&
         !isa<ParmVarDecl>(V) && Of->getCanonicalDecl() == RD;
}

const VarDecl *LocalRecords::ownerOf(const Expr *E, const FunctionDecl *Fn) {
  const auto *ME =
      dyn_cast_or_null<MemberExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!ME || ME->isArrow())
    return nullptr;
  const auto *DR = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParens());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && followed(V, Fn) ? V : nullptr;
}

bool LocalRecords::followedMember(const FieldDecl *FD, const FunctionDecl *Fn) {
  const RecordDecl *RD = recordOf(Fn);
  return RD && FD->getParent()->getCanonicalDecl() == RD;
}

} // namespace streamsafe
