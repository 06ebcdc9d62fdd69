//===--- Naming.cpp - PyTorch's naming conventions, as rules --------------===//

#include "lib/model/Naming.h"

namespace streamsafe::naming {

bool isInPlaceMethod(llvm::StringRef Name) {
  if (Name.starts_with("operator"))
    return Name.ends_with("=") && Name != "operator==" &&
           Name != "operator!=" && Name != "operator<=" && Name != "operator>=";
  return Name.size() > 1 && Name.ends_with("_") && !Name.starts_with("__");
}

bool isInPlaceFunction(llvm::StringRef Name) {
  return Name.size() > 1 && Name.ends_with("_") && !Name.starts_with("_");
}

bool isOutFirst(llvm::StringRef Name) { return Name.ends_with("_out"); }

bool isOutLast(llvm::StringRef Name) { return Name.ends_with("_outf"); }

bool isLikeFactory(llvm::StringRef Name) { return Name.ends_with("_like"); }

bool allocatesOnly(llvm::StringRef Name) { return Name.starts_with("empty"); }

bool copiesData(llvm::StringRef Name) { return Name == "tensor"; }

} // namespace streamsafe::naming
