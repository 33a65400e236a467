// Rationale: the parser keeps going after a statement it cannot read (it resumes at the next
// `;`), so that one typo does not hide the other problems of the declaration. Its errors are
// reported here, first, in source order.

use super::Ctxt;
use crate::model::Model;
use crate::parse::Item;

pub fn check(model: &Model, cx: &mut Ctxt) {
    for (item, _) in model.all_items() {
        if let Item::Invalid { error, .. } = item {
            cx.push(error.clone());
        }
    }
}
