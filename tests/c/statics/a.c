/* One of three files with its own `static int count;` (see main.c). */
static int count;

int a_bump(int times) {
    for (int i = 0; i < times; i++)
        count++;
    return count;
}
