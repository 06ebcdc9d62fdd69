//===--- StreamSafeModelMain.cpp - streamsafe-model: the API model's dump -===//
//
// A developer tool: prints the API model both front ends read (lib/model)
// as JSON, for the parity test and the docs' meta test.
//
//===----------------------------------------------------------------------===//

#include "lib/model/ModelJson.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc > 1) {
    llvm::StringRef A = argv[1];
    if (A == "--help" || A == "-h") {
      llvm::outs() << "usage: streamsafe-model\n\nPrints the API model "
                      "(lib/model) as JSON.\n";
      return 0;
    }
    llvm::errs() << "streamsafe-model: error: unknown argument '" << A
                 << "' (see --help)\n";
    return 2;
  }
  llvm::outs() << llvm::formatv("{0:2}", streamsafe::modelAsJson()) << "\n";
  return 0;
}
