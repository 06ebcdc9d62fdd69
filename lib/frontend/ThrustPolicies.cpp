//===--- ThrustPolicies.cpp - Which stream a thrust algorithm runs on -----===//

#include "lib/frontend/ThrustPolicies.h"
#include "lib/frontend/ApiTable.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace streamsafe {
namespace {

// The class (or class template) a type names, through references and
// qualifiers; for a specialization, its template's qualified name.
std::string templateOrClassName(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
      return canonicalName(TD);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
    return canonicalName(Spec->getSpecializedTemplate());
  return canonicalName(RD);
}

// `const thrust::detail::execution_policy_base<P> &`: the first parameter
// of every algorithm overload that takes a policy.
bool isPolicyParameter(const FunctionDecl &FD) {
  return FD.getNumParams() > 0 &&
         templateOrClassName(FD.getParamDecl(0)->getType()) ==
             "thrust::detail::execution_policy_base";
}

bool isCudaPolicyClass(const CXXRecordDecl *RD) {
  return RD && StringRef(canonicalName(RD)).starts_with("thrust::cuda_cub::");
}

// Where thrust keeps an iterator's system: a device_ptr, or a type argument
// of a thrust class that is one (normal_iterator<device_ptr<T>> of a
// device_vector, zip and transform iterators over them, pointer<T, tag>).
bool isDeviceIterator(QualType T, unsigned Depth = 0) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || Depth > 4 || !isInTopNamespace(RD, "thrust"))
    return false;
  if (isCudaPolicyClass(RD) && RD->getName() == "tag")
    return true;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    return false;
  if (canonicalName(Spec->getSpecializedTemplate()) == "thrust::device_ptr")
    return true;
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
    if (A.getKind() == TemplateArgument::Type &&
        isDeviceIterator(A.getAsType(), Depth + 1))
      return true;
  return false;
}

// The policy constants thrust declares, by the variable's name.
ThrustPolicy constantPolicy(const VarDecl &V) {
  if (!isInTopNamespace(&V, "thrust") ||
      !isCudaPolicyClass(V.getType()->getAsCXXRecordDecl()))
    return ThrustPolicy::None;
  StringRef Name = V.getName();
  if (Name == "device")
    return ThrustPolicy::Device;
  if (Name == "par")
    return ThrustPolicy::Par;
  if (Name == "par_nosync")
    return ThrustPolicy::ParNosync;
  return ThrustPolicy::None;
}

class PolicyWalker {
public:
  explicit PolicyWalker(
      llvm::function_ref<const Expr *(const VarDecl &)> InitializerIfUnchanged)
      : InitializerIfUnchanged(InitializerIfUnchanged) {}

  ThrustWork walk(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 4 || E->isTypeDependent())
      return {};
    E = E->IgnoreImplicitAsWritten()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      if (CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor())
        return walk(CE->getArg(0), Depth + 1);
    // policy.on(stream)
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (M && M->getIdentifier() && M->getName() == "on" &&
          MC->getNumArgs() == 1 && isCudaPolicyClass(M->getParent()))
        return {ThrustPolicy::None, MC->getArg(0), nullptr};
      return {};
    }
    // par(allocator): an allocator, still no stream.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (OC->getOperator() == OO_Call && OC->getNumArgs() > 0) {
        ThrustWork Inner = walk(OC->getArg(0), Depth + 1);
        if (Inner.Policy != ThrustPolicy::None)
          return Inner;
      }
      return {};
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V)
        return {};
      if (ThrustPolicy P = constantPolicy(*V); P != ThrustPolicy::None)
        return {P, nullptr, nullptr};
      if (const Expr *Init = InitializerIfUnchanged(*V)) {
        ThrustWork W = walk(Init, Depth + 1);
        if (!W.Via)
          W.Via = V;
        return W;
      }
    }
    return {};
  }

private:
  llvm::function_ref<const Expr *(const VarDecl &)> InitializerIfUnchanged;
};

} // namespace

bool isThrustAlgorithm(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD) ||
      !isInTopNamespace(FD, "thrust"))
    return false;
  if (isPolicyParameter(*FD))
    return true;
  for (const NamedDecl *D : FD->getDeclContext()->lookup(FD->getDeclName())) {
    const FunctionDecl *Other = D->getAsFunction();
    if (Other && isPolicyParameter(*Other))
      return true;
  }
  return false;
}

ThrustWork thrustWork(
    const CallExpr &Call,
    llvm::function_ref<const Expr *(const VarDecl &)> InitializerIfUnchanged) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || Call.getNumArgs() == 0)
    return {};
  if (isPolicyParameter(*FD))
    return PolicyWalker(InitializerIfUnchanged).walk(Call.getArg(0));
  // No policy: thrust picks the system of the iterators; the CUDA system
  // runs on its default stream.
  for (const Expr *Arg : Call.arguments())
    if (!Arg->isTypeDependent() && isDeviceIterator(Arg->getType()))
      return {ThrustPolicy::DeviceIterators, nullptr, nullptr};
  return {};
}

} // namespace streamsafe
