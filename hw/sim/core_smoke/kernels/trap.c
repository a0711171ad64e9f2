#include "simty_kernel.h"
int main(void)
{
  if (simty_thread_id() == 6) __asm__ volatile("ebreak");
  return 0;
}
