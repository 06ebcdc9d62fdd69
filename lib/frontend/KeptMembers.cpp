//===--- KeptMembers.cpp - What a class tells of the tensors it keeps -----===//
//
// The C++ reader of lib/lower/KeptTensors.h: for a tensor member a method
// stores into (`buf_ = t`), whether the class's methods defined in the unit
// record any tensor on a stream, use the member in a method that makes no
// other stream current (no stream guard, no setCurrentCUDAStream), or
// return it.
//
//===----------------------------------------------------------------------===//

#include "lib/frontend/MemberCode.h"
#include "lib/frontend/ObjectStreams.h"
#include "lib/frontend/ValueExprs.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace streamsafe {

void ObjectStreams::keptEvidence(const FieldDecl *F, lower::KeptEvidence &E) {
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  if (!RD || !RD->hasDefinition()) {
    E.ClassRecords = true; // nothing known: as if it recorded
    return;
  }
  auto [It, New] = Kept.try_emplace(RD->getCanonicalDecl());
  KeptScan &Scan = It->second;
  if (New)
    for (const CXXMethodDecl *MD : RD->getDefinition()->methods()) {
      const FunctionDecl *Def = nullptr;
      if (!MD->hasBody(Def) || !Def->getBody())
        continue;
      bool Switches = false;
      llvm::SmallPtrSet<const Expr *, 4> Stored;
      llvm::SmallVector<const FieldDecl *, 8> Used;
      llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
      while (!Work.empty()) {
        const Stmt *S = Work.pop_back_val();
        if (!S)
          continue;
        for (const Stmt *Child : S->children())
          Work.push_back(Child);
        if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
          const CXXRecordDecl *C = CE->getType()->getAsCXXRecordDecl();
          ValueClass K = C ? Table.classify(C) : ValueClass::None;
          Switches |= K == ValueClass::StreamGuard ||
                      K == ValueClass::OptionalGuard ||
                      K == ValueClass::MultiGuard;
        }
        if (const auto *CE = dyn_cast<CallExpr>(S)) {
          ApiEffect Effect = Table.lookup(CE->getDirectCallee()).Effect;
          Scan.Records |= Effect == ApiEffect::TensorRecordStream ||
                          Effect == ApiEffect::AllocatorRecordStream;
          Switches |= Effect == ApiEffect::SetCurrentStream ||
                      Effect == ApiEffect::ConfiguredSetCurrent;
          if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
              OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
            Stored.insert(stripValue(OC->getArg(0), Table));
        }
        if (const auto *R = dyn_cast<ReturnStmt>(S))
          if (const FieldDecl *Field = thisField(R->getRetValue(), Table))
            Scan.Returned.insert(Field);
        if (const auto *ME = dyn_cast<MemberExpr>(S))
          if (const FieldDecl *Field = thisField(ME, Table);
              Field && !Stored.count(ME))
            Used.push_back(Field);
      }
      // Visited before its children, an assignment marks its target first.
      if (!Switches)
        Scan.UsedPlainly.insert(Used.begin(), Used.end());
    }
  E.ClassRecords = Scan.Records;
  E.UsedOutsideSections = Scan.UsedPlainly.count(F);
  E.ReturnedByAMethod = Scan.Returned.count(F);
}

} // namespace streamsafe
