fn main() {
    lalrpop::process_src().expect("LALRPOP grammar");
}
