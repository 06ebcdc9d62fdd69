//===--- UnsetStreamMembers.cpp - Stream members nothing sets -------------===//

#include "lib/frontend/UnsetStreamMembers.h"
#include "lib/frontend/DefaultStreamScan.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace streamsafe {

namespace {

// The default stream an initializer names, if it names one.
std::optional<StreamOrigin> defaultOrigin(const Expr *Init, ApiTable &Table) {
  StreamOrigin O = Init ? spelledOrigin(Init, Table) : StreamOrigin::Unknown;
  if (O == StreamOrigin::Unknown || O == StreamOrigin::Current)
    return std::nullopt;
  return O;
}

// Every declared function of a class: methods and method templates.
template <typename F> void forEachMethod(const CXXRecordDecl &C, F Each) {
  for (const Decl *D : C.decls()) {
    const FunctionDecl *M = nullptr;
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      M = T->getTemplatedDecl();
    else
      M = dyn_cast<CXXMethodDecl>(D);
    if (M)
      Each(*M);
  }
}

// Every function and member the unit names.
class NameScan : public RecursiveASTVisitor<NameScan> {
public:
  NameScan(llvm::DenseSet<const Decl *> &Named, llvm::StringSet<> &Dependent)
      : Named(Named), Dependent(Dependent) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    note(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    note(E->getMemberDecl());
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    Dependent.insert(E->getName().getAsString());
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    Dependent.insert(E->getMember().getAsString());
    return true;
  }

private:
  void note(const Decl *D) {
    if (const auto *F = dyn_cast_or_null<FunctionDecl>(D)) {
      if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
        F = Pattern;
      Named.insert(F->getCanonicalDecl());
    }
  }
  llvm::DenseSet<const Decl *> &Named;
  llvm::StringSet<> &Dependent;
};

// Whether \p Body gives the member \p Holder (`&holder_`, or `holder_` to
// a reference parameter) to a function it does not define.
class HandOut : public RecursiveASTVisitor<HandOut> {
public:
  explicit HandOut(const FieldDecl &Holder) : Holder(Holder) {}
  bool Found = false;
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (Callee && Callee->isDefined())
      return true;
    for (const Expr *Arg : C->arguments()) {
      const Expr *E = Arg->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(E);
          U && U->getOpcode() == UO_AddrOf)
        E = U->getSubExpr()->IgnoreParenImpCasts();
      if (scan::BodyScan::thisMember(E) == &Holder)
        Found = true;
    }
    return !Found;
  }

private:
  const FieldDecl &Holder;
};

bool handsOut(const Stmt &Body, const FieldDecl &Holder) {
  HandOut V(Holder);
  V.TraverseStmt(const_cast<Stmt *>(&Body));
  return V.Found;
}

} // namespace

bool UnsetStreamMembers::named(const FunctionDecl &F) {
  if (!Scanned) {
    NameScan(Named, NamedDependently)
        .TraverseDecl(Ctx.getTranslationUnitDecl());
    Scanned = true;
  }
  return Named.count(F.getCanonicalDecl()) ||
         NamedDependently.count(F.getName());
}

bool UnsetStreamMembers::closedHolder(const CXXMemberCallExpr &Call) {
  const Expr *Object = Call.getImplicitObjectArgument();
  const FieldDecl *Holder =
      Object ? scan::BodyScan::thisMember(Object->IgnoreParenImpCasts())
             : nullptr;
  if (!Holder || Holder->getAccess() != AS_private)
    return false;
  const auto *Owner = dyn_cast<CXXRecordDecl>(Holder->getParent());
  if (!Owner || Owner->hasFriends())
    return false;
  // Every method defined here, none hands the object out (a reference or
  // pointer to it returned, or given to a function defined elsewhere).
  bool Closed = true;
  forEachMethod(*Owner, [&](const FunctionDecl &M) {
    if (M.isImplicit() || M.isDeleted() || M.isDefaulted())
      return;
    const FunctionDecl *Def = nullptr;
    if (!M.getBody(Def)) {
      Closed = false;
      return;
    }
    QualType R = M.getReturnType();
    if ((R->isReferenceType() || R->isPointerType()) &&
        Ctx.hasSameUnqualifiedType(R->getPointeeType(), Holder->getType()))
      Closed = false;
    if (Closed && handsOut(*Def->getBody(), *Holder))
      Closed = false;
  });
  return Closed;
}

std::optional<UnsetStreamMember>
UnsetStreamMembers::initialValue(const FieldDecl &Member) {
  const auto *C = dyn_cast<CXXRecordDecl>(Member.getParent());
  if (!C || C->hasFriends() || Member.getAccess() == AS_public)
    return std::nullopt;
  std::optional<UnsetStreamMember> Result;
  bool Unknown = false;
  auto Give = [&](const Expr *Init, SourceLocation At) {
    std::optional<StreamOrigin> O = defaultOrigin(Init, Table);
    if (!O) {
      Unknown = true;
      return;
    }
    if (!Result)
      Result = UnsetStreamMember{At, *O, nullptr};
  };
  auto OwnInit = [&] {
    Give(Member.getInClassInitializer(), Member.getLocation());
  };
  bool AnyConstructor = false;
  for (const CXXConstructorDecl *Ctor : C->ctors()) {
    // A copy starts from another object of the class, itself unset.
    if (Ctor->isDeleted() || Ctor->isCopyOrMoveConstructor())
      continue;
    AnyConstructor = true;
    if (Ctor->isImplicit()) {
      OwnInit();
      continue;
    }
    const FunctionDecl *Def = nullptr;
    if (!Ctor->getBody(Def)) {
      Unknown = true;
      continue;
    }
    const CXXCtorInitializer *Found = nullptr;
    for (const CXXCtorInitializer *I : cast<CXXConstructorDecl>(Def)->inits())
      if (I->getMember() == &Member && I->isWritten())
        Found = I;
    if (Found)
      Give(Found->getInit(), Found->getSourceLocation());
    else
      OwnInit();
  }
  if (!AnyConstructor)
    OwnInit();
  if (Unknown || !Result)
    return std::nullopt;
  return Result;
}

std::optional<UnsetStreamMember>
UnsetStreamMembers::atCall(const CXXMemberCallExpr &Call,
                           const FieldDecl &Member) {
  std::optional<UnsetStreamMember> Unset = initialValue(Member);
  if (!Unset || !closedHolder(Call))
    return std::nullopt;
  const auto *C = cast<CXXRecordDecl>(Member.getParent());
  bool Set = false;
  forEachMethod(*C, [&](const FunctionDecl &M) {
    const FunctionDecl *Def = nullptr;
    if (Set || isa<CXXConstructorDecl>(M) || !M.getBody(Def))
      return;
    scan::BodyScan Scan(Table, scan::BodyScan::WithLambdas);
    Scan.TraverseStmt(Def->getBody());
    if (!Scan.AssignedFields.count(&Member))
      return;
    if (named(M))
      Set = true;
    else if (!Unset->Setter)
      Unset->Setter = &M;
  });
  if (Set)
    return std::nullopt;
  return Unset;
}

} // namespace streamsafe
