//===--- SyncCallMemory.cpp - Does a synchronous runtime call touch tensors
//===//

#include "lib/frontend/SyncCallMemory.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace streamsafe {
namespace {

// cudaMemcpyKind's enumerators, as the runtime headers define them.
enum CopyKind { HostToHost = 0, HostToDevice = 1, DeviceToHost = 2 };

// The values assigned to each local variable of a body after its
// initialization (p = t.data_ptr<float>()).
class Assignments : public RecursiveASTVisitor<Assignments> {
public:
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Values;

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      if (const auto *R = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
          Values[V].push_back(B->getRHS());
    return true;
  }
};

// Follows a pointer expression back to where it came from.
class Origins {
public:
  Origins(const Stmt &Body, ApiTable &Table) : Table(Table) {
    A.TraverseStmt(const_cast<Stmt *>(&Body));
  }

  bool fromTensor(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return false;
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref) &&
             fromTensor(U->getSubExpr(), Depth + 1);
    if (const auto *S = dyn_cast<ArraySubscriptExpr>(E))
      return fromTensor(S->getBase(), Depth + 1);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return B->isAdditiveOp() && (pointerFrom(B->getLHS(), Depth + 1) ||
                                   pointerFrom(B->getRHS(), Depth + 1));
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return fromTensor(C->getTrueExpr(), Depth + 1) ||
             fromTensor(C->getFalseExpr(), Depth + 1);
    // Only calls that yield memory: t.numel() is no pointer into t.
    bool YieldsMemory =
        E->getType()->isPointerType() || tensorMemoryClass(E->getType());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      return YieldsMemory &&
             holdsTensorMemory(MC->getImplicitObjectArgument(), Depth + 1);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
      return YieldsMemory && OC->getNumArgs() &&
             holdsTensorMemory(OC->getArg(0), Depth + 1);
    if (const auto *CE = dyn_cast<CallExpr>(E))
      return E->getType()->isPointerType() &&
             pointerFromTensorArgument(*CE, Depth + 1);
    if (const auto *R = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
        return localFromTensor(*V, Depth);
    return false;
  }

private:
  // An operand of pointer arithmetic: the pointer, not the offset.
  bool pointerFrom(const Expr *E, unsigned Depth) {
    return E->IgnoreParenImpCasts()->getType()->isPointerType() &&
           fromTensor(E, Depth);
  }

  // The object of a member call: a tensor, its storage, data pointer or
  // accessor, or a value derived from one (t.storage().data_ptr().get()).
  bool holdsTensorMemory(const Expr *Obj, unsigned Depth) {
    if (!Obj)
      return false;
    if (tensorMemoryClass(Obj->getType()))
      return true;
    return fromTensor(Obj, Depth);
  }

  bool tensorMemoryClass(QualType T) {
    T = T.getNonReferenceType();
    if (const auto *P = T->getAs<PointerType>())
      T = P->getPointeeType();
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD)
      return false;
    if (Table.classify(RD) == ValueClass::Tensor)
      return true;
    if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      RD = S->getSpecializedTemplate()->getTemplatedDecl();
    std::string Name = canonicalName(RD);
    llvm::StringRef N = Name;
    return N == "c10::Storage" || N == "c10::StorageImpl" ||
           N == "c10::DataPtr" || N.starts_with("at::TensorAccessor") ||
           N.starts_with("at::GenericPackedTensorAccessor") ||
           N.starts_with("at::PackedTensorAccessor");
  }

  // get_ptr<float>(t), thrust::raw_pointer_cast(...): a call that returns a
  // pointer and is given a tensor or tensor memory.
  bool pointerFromTensorArgument(const CallExpr &CE, unsigned Depth) {
    for (const Expr *Arg : CE.arguments())
      if (tensorMemoryClass(Arg->getType()) || fromTensor(Arg, Depth))
        return true;
    return false;
  }

  bool localFromTensor(const VarDecl &V, unsigned Depth) {
    if (!V.hasLocalStorage() || isa<ParmVarDecl>(V))
      return false;
    if (V.getInit() && fromTensor(V.getInit(), Depth + 1))
      return true;
    auto It = A.Values.find(&V);
    if (It == A.Values.end())
      return false;
    for (const Expr *Value : It->second)
      if (fromTensor(Value, Depth + 1))
        return true;
    return false;
  }

  ApiTable &Table;
  Assignments A;
};

// The direction argument, when it is spelled as one of cudaMemcpyKind's
// enumerators.
std::optional<int64_t> copyKind(const CallExpr &Call, const ApiEntry &Row) {
  if (Row.Direction < 0 || unsigned(Row.Direction) >= Call.getNumArgs())
    return std::nullopt;
  const Expr *Arg = Call.getArg(Row.Direction)->IgnoreParenImpCasts();
  if (const auto *R = dyn_cast<DeclRefExpr>(Arg))
    if (const auto *C = dyn_cast<EnumConstantDecl>(R->getDecl()))
      return C->getInitVal().getExtValue();
  return std::nullopt;
}

const Expr *argument(const CallExpr &Call, int8_t Index) {
  return Index >= 0 && unsigned(Index) < Call.getNumArgs() ? Call.getArg(Index)
                                                           : nullptr;
}

} // namespace

bool touchesTensorMemory(const CallExpr &Call, const ApiEntry &Row,
                         const Stmt &Body, ApiTable &Table) {
  Origins O(Body, Table);
  // Rows that name no pointer (cudaMemcpy3D's parameter struct,
  // cudaMemset2D): any argument may hold the device pointer.
  if (Row.Dest < 0 && Row.Source < 0) {
    for (const Expr *Arg : Call.arguments())
      if (O.fromTensor(Arg))
        return true;
    return false;
  }
  std::optional<int64_t> Kind = copyKind(Call, Row);
  if (Kind && *Kind == HostToHost)
    return false;
  bool DestOnDevice = !Kind || *Kind != DeviceToHost;
  bool SourceOnDevice = !Kind || *Kind != HostToDevice;
  return (DestOnDevice && O.fromTensor(argument(Call, Row.Dest))) ||
         (SourceOnDevice && O.fromTensor(argument(Call, Row.Source)));
}

} // namespace streamsafe
