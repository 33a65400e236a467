// Rationale: the parser keeps going after a statement it cannot read (it resumes at the next
// `;`), so that one typo does not hide the other problems of the declaration. Its errors are
// reported here, first, in source order (a `for` loop whose header does not parse keeps its
// body, whose nodes stay known).

use super::Ctxt;
use crate::model::Model;
use crate::parse::Item;

pub fn check(model: &Model, cx: &mut Ctxt) {
    for (item, _) in model.all_items() {
        match item {
            Item::Invalid { error, .. } => cx.push(error.clone()),
            Item::Repeat(repeat) => {
                if let Err(error) = &repeat.header {
                    cx.push(error.clone());
                }
            }
            _ => {}
        }
    }
}
