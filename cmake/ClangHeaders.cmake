# Precompiled clang and LLVM headers for the targets that parse them.
#
# Most of the time of building the Clang front end, the checks and the unit
# tests is spent parsing the same clang headers in every file (ASTContext,
# ExprCXX, RecursiveASTVisitor, CFG, the matchers). One precompiled header per
# target parses them once. The headers are listed here, not in a header of
# ours, so that every source still includes what it uses and builds with
# -DSTREAMSAFE_PRECOMPILE_HEADERS=OFF (which CI does not test; a missing
# include shows there).
option(STREAMSAFE_PRECOMPILE_HEADERS
  "Precompile the clang and LLVM headers of the C++ front end" ON)

set(STREAMSAFE_CLANG_PCH_HEADERS
  <clang/AST/ASTContext.h>
  <clang/AST/DeclCXX.h>
  <clang/AST/DeclTemplate.h>
  <clang/AST/ExprCXX.h>
  <clang/AST/ParentMap.h>
  <clang/AST/RecursiveASTVisitor.h>
  <clang/AST/StmtCXX.h>
  <clang/Analysis/CFG.h>
  <clang/ASTMatchers/ASTMatchFinder.h>
  <clang/ASTMatchers/ASTMatchers.h>
  <clang/Basic/SourceManager.h>
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/DenseSet.h>
  <llvm/ADT/STLExtras.h>
  <llvm/ADT/SmallPtrSet.h>
  <llvm/ADT/SmallVector.h>
  <llvm/ADT/StringRef.h>
  <memory>
  <optional>
  <string>
  <vector>)

# streamsafe_precompile_clang_headers(TARGET [REUSE_FROM OTHER]): TARGET gets
# the precompiled header, or reuses OTHER's (same flags required).
function(streamsafe_precompile_clang_headers target)
  if(NOT STREAMSAFE_PRECOMPILE_HEADERS)
    return()
  endif()
  cmake_parse_arguments(PCH "" "REUSE_FROM" "" ${ARGN})
  if(PCH_REUSE_FROM)
    target_precompile_headers(${target} REUSE_FROM ${PCH_REUSE_FROM})
  else()
    target_precompile_headers(${target} PRIVATE ${STREAMSAFE_CLANG_PCH_HEADERS})
  endif()
endfunction()
