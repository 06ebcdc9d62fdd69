//===--- LowerPlacement.cpp - Where a new tensor's memory lives ----------===//
//
// A factory's result lives where its options say: `.device(at::kCPU)`,
// `at::kCPU`, `"cpu"` or no device at all (ATen's default device is the CPU)
// give host memory, `.pinned_memory(true)` pinned host memory, `at::kCUDA`,
// `x.options()` or options the analysis cannot read give device memory (the
// old, conservative answer). Host memory has no allocation stream; pinned
// host memory is what asynchronous copies and the host race on. A device
// with a constant index (`at::Device(at::kCUDA, 1)`, `"cuda:1"`,
// `.device_index(1)`) says which device: the result is allocated on that
// device's current stream.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/Lowering.h"
#include "lib/model/Arguments.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace streamsafe {

namespace {

enum class Where { Unstated, Host, Pinned, Device, Unknown };

/// Two statements about one result: a device or an unreadable statement
/// wins (the conservative answer), then pinned, then host.
Where combine(Where A, Where B) {
  auto Rank = [](Where W) {
    switch (W) {
    case Where::Unstated:
      return 0;
    case Where::Host:
      return 1;
    case Where::Pinned:
      return 2;
    case Where::Device:
    case Where::Unknown:
      return 3;
    }
    return 3;
  };
  return Rank(A) >= Rank(B) ? A : B;
}

StringRef nameOf(const NamedDecl *D) {
  return D && D->getIdentifier() ? D->getName() : StringRef();
}

bool literalFalse(const Expr *E) {
  const auto *B =
      dyn_cast_or_null<CXXBoolLiteralExpr>(E ? E->IgnoreImplicit() : nullptr);
  return B && !B->getValue();
}

// A constant device index: a literal, a constant expression.
std::optional<int8_t> constantIndex(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  int64_t V = R.Val.getInt().getExtValue();
  if (V < 0 || V > 127)
    return std::nullopt;
  return int8_t(V);
}

// "cuda:1": the index after the colon.
std::optional<int8_t> indexInString(StringRef S) {
  if (!S.consume_front("cuda:"))
    return std::nullopt;
  unsigned V = 0;
  if (S.getAsInteger(10, V) || V > 127)
    return std::nullopt;
  return int8_t(V);
}

class OptionsReader {
public:
  OptionsReader(ApiTable &Table, const ASTContext &Ctx)
      : Table(Table), Ctx(Ctx) {}

  /// The index of the last CUDA device with a constant index the options
  /// named (valid when the answer is Where::Device).
  std::optional<int8_t> Index;

  /// What a device expression (at::kCPU, "cuda:0", at::Device(...),
  /// x.device()) says.
  Where device(const Expr *E, int Depth = 0) {
    if (!E || Depth > 8)
      return Where::Unknown;
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      StringRef N = nameOf(DR->getDecl());
      if (N == "kCPU" || N == "CPU")
        return Where::Host;
      if (N == "kCUDA" || N == "CUDA")
        return Where::Device;
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && V->getInit() &&
          (V->getType().isConstQualified() ||
           (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && Reassigned &&
            !Reassigned(V))))
        return device(V->getInit(), Depth + 1);
      return Where::Unknown;
    }
    if (const auto *SL = dyn_cast<StringLiteral>(E)) {
      if (SL->getCharByteWidth() != 1)
        return Where::Unknown;
      if (SL->getString().starts_with("cpu"))
        return Where::Host;
      if (!SL->getString().starts_with("cuda"))
        return Where::Unknown;
      Index = indexInString(SL->getString());
      return Where::Device;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (!CE->getNumArgs())
        return Where::Unknown;
      Where W = device(CE->getArg(0), Depth + 1);
      // Device(kCUDA, 1): the second argument is the index.
      if (W == Where::Device && CE->getNumArgs() > 1 &&
          !isa<CXXDefaultArgExpr>(CE->getArg(1)))
        Index = constantIndex(CE->getArg(1), Ctx);
      return W;
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return device(MT->getSubExpr(), Depth + 1);
    return Where::Unknown; // x.device(), a parameter: not known
  }

  /// What a TensorOptions expression says.
  Where options(const Expr *E, int Depth = 0) {
    if (!E || Depth > 16)
      return Where::Unknown;
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return options(MT->getSubExpr(), Depth + 1);
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      return options(BT->getSubExpr(), Depth + 1);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      StringRef N = nameOf(MC->getMethodDecl());
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (Table.classify(Obj->getType()) == ValueClass::Tensor)
        return N == "options" ? Where::Device : Where::Unknown;
      const Expr *Arg = MC->getNumArgs() ? MC->getArg(0) : nullptr;
      if (arguments::isPinOption(N)) {
        // A flag that may be false leaves whatever the rest says, unless
        // that is the host: then the memory is pinned or not, and pinned is
        // the case that can race.
        if (literalFalse(Arg))
          return options(Obj, Depth + 1);
        const auto *B =
            Arg ? dyn_cast<CXXBoolLiteralExpr>(Arg->IgnoreImplicit()) : nullptr;
        return B ? Where::Pinned
                 : combine(options(Obj, Depth + 1), Where::Pinned);
      }
      if (N == arguments::Device)
        return device(Arg, Depth + 1); // the last device set wins
      if (N == "device_index") {
        Index = constantIndex(Arg, Ctx);
        return Where::Device;
      }
      // dtype(), layout(), requires_grad(), memory_format(): no device.
      return options(Obj, Depth + 1);
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      // TensorOptions(), TensorOptions(kCPU), TensorOptions(kFloat), a copy.
      Where W = Where::Unstated;
      for (const Expr *Arg : CE->arguments())
        W = combine(W, argument(Arg, Depth + 1));
      return W;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      // at::device(kCPU), at::dtype(kFloat), at::requires_grad().
      StringRef N = nameOf(CE->getDirectCallee());
      if (N == arguments::Device)
        return CE->getNumArgs() ? device(CE->getArg(0), Depth + 1)
                                : Where::Unknown;
      if (N == "dtype" || N == "layout" || N == "requires_grad" ||
          N == "memory_format")
        return Where::Unstated;
      return Where::Unknown; // a helper's options
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      // A local never assigned again holds what it was initialised with.
      if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
          (V->getType().isConstQualified() || !Reassigned(V)))
        return options(V->getInit(), Depth + 1);
      return device(E, Depth + 1);
    }
    return Where::Unknown;
  }

  /// One argument of a factory or a to(): options, a device, a dtype.
  Where argument(const Expr *Arg, int Depth = 0) {
    if (!Arg || isa<CXXDefaultArgExpr>(Arg))
      return Where::Unstated;
    QualType T = Arg->getType().getNonReferenceType();
    if (T->isIntegralOrEnumerationType() || T->isFloatingType() ||
        T->isBooleanType()) {
      // at::kCPU / at::kCUDA say a device; a dtype constant or a number
      // says none.
      Where W = isa<DeclRefExpr>(Arg->IgnoreImplicit()) ? device(Arg, Depth)
                                                        : Where::Unknown;
      return W == Where::Unknown ? Where::Unstated : W;
    }
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    StringRef N = nameOf(RD);
    if (N == "TensorOptions")
      return options(Arg, Depth);
    if (N == "Device")
      return device(Arg, Depth);
    if (N == "optional")
      return options(Arg, Depth);
    // sizes, scalars, generators, memory formats, names: no device.
    return Where::Unstated;
  }

  std::function<bool(const VarDecl *)> Reassigned;

private:
  ApiTable &Table;
  const ASTContext &Ctx;
};

} // namespace

std::optional<int8_t> Lowering::deviceIndexOf(const Expr *E) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return std::nullopt;
  if (E->getType()->isIntegralOrEnumerationType() &&
      !E->getType()->isEnumeralType())
    return constantIndex(E, Ctx);
  OptionsReader P(Table, Ctx);
  P.Reassigned = [this](const VarDecl *V) { return rebound(V); };
  if (P.device(E) != Where::Device)
    return std::nullopt;
  return P.Index;
}

Placement Lowering::placementOf(const CallExpr *CE, bool Like, int8_t *Device) {
  OptionsReader P(Table, Ctx);
  P.Reassigned = [this](const VarDecl *V) { return rebound(V); };
  Where W = Where::Unstated;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *Arg = CE->getArg(I);
    // The unpacked overloads: empty(size, dtype, layout, device,
    // pin_memory, ...).
    const FunctionDecl *FD = CE->getDirectCallee();
    StringRef Param = FD && I < FD->getNumParams() ? nameOf(FD->getParamDecl(I))
                                                   : StringRef();
    if (Param == arguments::PinMemory && !isa<CXXDefaultArgExpr>(Arg)) {
      if (!literalFalse(Arg))
        W = combine(W, Where::Pinned);
      continue;
    }
    if (Table.classify(Arg->getType()) == ValueClass::Tensor)
      continue; // the source of a _like factory, or of to(other)
    W = combine(W, P.argument(Arg));
  }
  switch (W) {
  case Where::Unstated:
    // A factory's default device is the CPU; a _like factory's and a to()'s
    // is the source's.
    return Like ? Placement::Source : Placement::Host;
  case Where::Host:
    return Placement::Host;
  case Where::Pinned:
    return Placement::PinnedHost;
  case Where::Device:
    if (Device && P.Index)
      *Device = *P.Index;
    return Placement::Device;
  case Where::Unknown:
    return Placement::Device;
  }
  return Placement::Device;
}

} // namespace streamsafe
