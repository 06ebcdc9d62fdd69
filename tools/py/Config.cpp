//===--- Config.cpp - The .clang-tidy file, read for Python ---------------===//

#include "tools/py/Config.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

namespace streamsafe::py {

namespace {

std::string scalar(llvm::yaml::Node *N) {
  auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N);
  if (!S)
    return "";
  llvm::SmallString<64> Storage;
  return S->getValue(Storage).str();
}

void option(FileConfig &C, llvm::StringRef Key, llvm::StringRef Value) {
  // "VisitsPerBlock" or "streamsafe-<check>.VisitsPerBlock"; likewise
  // SideStreamParameters.
  llvm::StringRef Name =
      Key.rsplit('.').second.empty() ? Key : Key.rsplit('.').second;
  if (Name == "DeviceModuleFunctions") {
    C.DeviceModuleFunctions = Value.trim().str();
    return;
  }
  if (Name == "ProjectRoot") {
    C.ProjectRoot = Value.trim().str();
    return;
  }
  if (Name == "SideStreamParameters" || Name == "FollowImports") {
    // clang-tidy's spellings of a boolean option.
    std::string B = Value.trim().lower();
    std::optional<bool> &Slot =
        Name == "FollowImports" ? C.FollowImports : C.SideStreamParameters;
    if (B == "true" || B == "1")
      Slot = true;
    else if (B == "false" || B == "0")
      Slot = false;
    return;
  }
  uint64_t N = 0;
  if (Value.trim().getAsInteger(10, N))
    return;
  if (Name == "VisitsPerBlock")
    C.VisitsPerBlock = unsigned(N);
  else if (Name == "MaxStateWork")
    C.MaxStateWork = N;
}

void read(FileConfig &C, llvm::StringRef Text) {
  llvm::SourceMgr SM;
  llvm::yaml::Stream S(Text, SM);
  for (llvm::yaml::Document &D : S) {
    auto *Top = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(D.getRoot());
    if (!Top)
      continue;
    for (llvm::yaml::KeyValueNode &KV : *Top) {
      std::string Key = scalar(KV.getKey());
      if (Key == "Checks") {
        C.Checks = scalar(KV.getValue());
        continue;
      }
      if (Key != "CheckOptions")
        continue;
      llvm::yaml::Node *V = KV.getValue();
      if (auto *M = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(V)) {
        for (llvm::yaml::KeyValueNode &O : *M)
          option(C, scalar(O.getKey()), scalar(O.getValue()));
      } else if (auto *L =
                     llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(V)) {
        // The older list form: - key: K  value: V
        for (llvm::yaml::Node &Item : *L) {
          auto *M = llvm::dyn_cast<llvm::yaml::MappingNode>(&Item);
          if (!M)
            continue;
          std::string K, Val;
          for (llvm::yaml::KeyValueNode &O : *M) {
            std::string Field = scalar(O.getKey());
            if (Field == "key")
              K = scalar(O.getValue());
            else if (Field == "value")
              Val = scalar(O.getValue());
          }
          option(C, K, Val);
        }
      }
    }
  }
  if (S.failed())
    C.Error = "not valid YAML";
}

} // namespace

FileConfig configFor(llvm::StringRef File) {
  FileConfig C;
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  // (parent_path points into Dir: copy it before assigning.)
  for (; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir).str()) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ".clang-tidy");
    if (llvm::sys::fs::exists(Candidate)) {
      C.Path = Candidate.str().str();
      auto Buf = llvm::MemoryBuffer::getFile(Candidate);
      if (!Buf)
        C.Error = Buf.getError().message();
      else
        read(C, (*Buf)->getBuffer());
      // A relative ProjectRoot is the configuration's folder's.
      if (C.ProjectRoot && !C.ProjectRoot->empty() &&
          llvm::sys::path::is_relative(*C.ProjectRoot)) {
        llvm::SmallString<256> Root(Dir);
        llvm::sys::path::append(Root, *C.ProjectRoot);
        llvm::sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
        C.ProjectRoot = Root.str().str();
      }
      return C;
    }
    if (llvm::sys::path::parent_path(Dir) == Dir)
      break;
  }
  return C;
}

} // namespace streamsafe::py
