// Extended attributes, which Swift's Glibc module leaves out; they live in libc itself.
#include <sys/types.h>
#include <sys/xattr.h>
