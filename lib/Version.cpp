// Placeholder translation unit until the analysis lands.
namespace streamsafe { const char *version() { return STREAMSAFE_VERSION; } }
