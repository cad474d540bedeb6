//! Checking a constraint's syntax tree before it is ever evaluated.
//!
//! `cel` has no type checker: an unknown variable or function only fails
//! when evaluation reaches it. The [`Checker`] walks the parsed tree once,
//! rejects anything but `spec`, `self` and the standard library, enforces
//! the limits on the tree's depth, on comprehension nesting and on variable
//! uses, measures the tree's height, and inserts the evaluation budget's
//! charges. Request-time predicates and counters (`dopol request`) go
//! through the same walk with any name allowed ([`check_request`]).

use super::budget::{REGEX_STEPS, charge_before, meter_step};
use super::parse::{env, parse};
use super::stdlib::{MACROS, STANDARD_FUNCTIONS};
use super::{
    Constraint, ExprError, MAX_COMPREHENSION_NESTING, MAX_TREE_DEPTH, MAX_VARIABLE_USES,
    is_identifier_char, over_limit,
};
use cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, SourceInfo};

/// The variables a constraint may use.
const CONSTRAINT_VARIABLES: &[&str] = &["spec", "self"];

/// Which names an expression may use.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Names {
    /// A constraint: `spec`, `self` and the standard library.
    Constraint,
    /// A request-time predicate or counter: any variable and function (an unbound one fails
    /// at evaluation). The tree limits and the metering are the same.
    Any,
}

/// Parses `text` and checks it as a constraint.
pub(super) fn compile_constraint(text: &str) -> Result<Constraint, ExprError> {
    let (mut expr, info) = parse(text)?;
    let mut checker = Checker {
        text,
        info: &info,
        loops: Vec::new(),
        names: Names::Constraint,
    };
    let shape = checker.visit(&mut expr, 0, 0)?;
    Ok(Constraint {
        expr,
        height: shape.height,
    })
}

/// Checks a parsed request-time expression against the tree limits and inserts the budget's
/// charges, as for constraints, but with any variable and function allowed.
pub(crate) fn check_request(
    text: &str,
    info: &SourceInfo,
    expr: &mut IdedExpr,
) -> Result<(), ExprError> {
    let mut checker = Checker {
        text,
        info,
        loops: Vec::new(),
        names: Names::Any,
    };
    checker.visit(expr, 0, 0).map(|_| ())
}

/// The size of a checked subtree.
#[derive(Clone, Copy, Default)]
struct Shape {
    nodes: usize,
    height: usize,
}

impl Shape {
    fn and(self, other: Shape) -> Shape {
        Shape {
            nodes: self.nodes + other.nodes,
            height: self.height.max(other.height),
        }
    }
}

/// The variables a comprehension binds, and how often its body uses them.
struct LoopScope {
    variables: Vec<String>,
    uses: usize,
}

/// Checks a constraint's tree against the rules and limits, and meters its
/// comprehensions.
struct Checker<'a> {
    text: &'a str,
    info: &'a SourceInfo,
    loops: Vec<LoopScope>,
    names: Names,
}

impl Checker<'_> {
    /// Checks `expr`, at `depth` in the tree and inside `nesting`
    /// comprehension bodies.
    fn visit(
        &mut self,
        expr: &mut IdedExpr,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        if depth >= MAX_TREE_DEPTH {
            return Err(self.error_at_node(
                expr.id,
                over_limit(
                    format_args!("the expression is nested more than {MAX_TREE_DEPTH} levels deep"),
                    "cel-tree-depth",
                ),
            ));
        }
        let id = expr.id;
        let below = depth + 1;
        let children = match &mut expr.expr {
            Expr::Literal(_) => Shape::default(),
            Expr::Ident(name) => {
                self.check_identifier(name, id)?;
                Shape::default()
            }
            Expr::Select(select) => {
                if self.is_type_name(&select.operand, &select.field) && !select.test {
                    Shape::default()
                } else {
                    self.visit(&mut select.operand, below, nesting)?
                }
            }
            Expr::Call(call) => self.visit_call(call, id, below, nesting)?,
            Expr::Comprehension(comprehension) => {
                self.visit_comprehension(comprehension, id, below, nesting)?
            }
            Expr::List(list) => self.visit_all(list.elements.iter_mut(), below, nesting)?,
            Expr::Map(map) => {
                let mut shape = Shape::default();
                for entry in &mut map.entries {
                    shape = shape.and(match &mut entry.expr {
                        EntryExpr::MapEntry(entry) => {
                            let key = self.visit(&mut entry.key, below, nesting)?;
                            key.and(self.visit(&mut entry.value, below, nesting)?)
                        }
                        EntryExpr::StructField(field) => {
                            self.visit(&mut field.value, below, nesting)?
                        }
                    });
                }
                shape
            }
            Expr::Struct(_) => {
                return Err(self.error_at_node(id, "message literals are not supported here"));
            }
            Expr::Unspecified => {
                return Err(self.error_at_node(id, "incomplete expression"));
            }
        };
        if matches!(&expr.expr, Expr::Call(call) if call.func_name == "matches") {
            charge_before(expr, REGEX_STEPS);
            return Ok(Shape {
                nodes: children.nodes + 4,
                height: children.height + 2,
            });
        }
        Ok(Shape {
            nodes: children.nodes + 1,
            height: children.height + 1,
        })
    }

    fn visit_all<'e>(
        &mut self,
        exprs: impl Iterator<Item = &'e mut IdedExpr>,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        let mut shape = Shape::default();
        for expr in exprs {
            shape = shape.and(self.visit(expr, depth, nesting)?);
        }
        Ok(shape)
    }

    fn visit_call(
        &mut self,
        call: &mut CallExpr,
        id: u64,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        // `optional.of(x)` is a call to `optional.of`, not `of` on a variable.
        let qualified = call
            .target
            .as_deref()
            .and_then(|target| self.non_variable_name(target))
            .map(|namespace| format!("{namespace}.{}", call.func_name))
            .filter(|name| STANDARD_FUNCTIONS.contains(&name.as_str()));
        if qualified.is_none() {
            self.check_function(&call.func_name, id)?;
        }
        let target = match call.target.as_deref_mut() {
            Some(target) if qualified.is_none() => self.visit(target, depth, nesting)?,
            _ => Shape::default(),
        };
        Ok(target.and(self.visit_all(call.args.iter_mut(), depth, nesting)?))
    }

    fn visit_comprehension(
        &mut self,
        comprehension: &mut ComprehensionExpr,
        id: u64,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        if nesting >= MAX_COMPREHENSION_NESTING {
            return Err(self.error_at_call(
                id,
                format!(
                    "{}; this could make evaluation too slow",
                    over_limit(
                        format_args!(
                            "comprehensions are nested more than {MAX_COMPREHENSION_NESTING} \
                             levels deep"
                        ),
                        "cel-comprehension-nesting",
                    )
                ),
            ));
        }
        let range = self.visit(&mut comprehension.iter_range, depth, nesting)?;
        let variables = [
            Some(&comprehension.iter_var),
            comprehension.iter_var2.as_ref(),
        ];
        self.loops.push(LoopScope {
            variables: variables.into_iter().flatten().cloned().collect(),
            uses: 0,
        });
        let init = self.visit(&mut comprehension.accu_init, depth, nesting)?;
        let condition = self.visit(&mut comprehension.loop_cond, depth, nesting + 1)?;
        let step = self.visit(&mut comprehension.loop_step, depth, nesting + 1)?;
        let result = self.visit(&mut comprehension.result, depth, nesting)?;
        self.loops.pop();
        meter_step(comprehension, step.nodes + 1);
        let metered_step = Shape {
            nodes: step.nodes + 3,
            height: step.height + 1,
        };
        Ok(range.and(init).and(condition).and(metered_step).and(result))
    }

    fn check_identifier(&mut self, name: &str, id: u64) -> Result<(), ExprError> {
        if name.starts_with('@') {
            return Ok(()); // a macro's accumulator
        }
        if let Some(scope) = self
            .loops
            .iter_mut()
            .rev()
            .find(|scope| scope.variables.iter().any(|v| v == name))
        {
            scope.uses += 1;
            if scope.uses > MAX_VARIABLE_USES {
                return Err(self.error_at_node(
                    id,
                    over_limit(
                        format_args!(
                            "`{name}` is used more than {MAX_VARIABLE_USES} times in its \
                             comprehension"
                        ),
                        "cel-variable-uses",
                    ),
                ));
            }
            return Ok(());
        }
        if self.names == Names::Any
            || CONSTRAINT_VARIABLES.contains(&name)
            || env().types().find_type(name).is_some()
        {
            return Ok(());
        }
        Err(self.error_at_node(
            id,
            format!("unknown variable `{name}`; constraints can use `spec` and `self`"),
        ))
    }

    fn check_function(&self, name: &str, id: u64) -> Result<(), ExprError> {
        if self.names == Names::Any || STANDARD_FUNCTIONS.contains(&name) {
            Ok(())
        } else if MACROS.contains(&name) {
            Err(self.error_at_call(id, format!("wrong arguments for the `{name}` macro")))
        } else {
            Err(self.error_at_call(id, format!("unknown function `{name}`")))
        }
    }

    /// Whether `operand.field` names a standard type, such as
    /// `google.protobuf.Duration`.
    fn is_type_name(&self, operand: &IdedExpr, field: &str) -> bool {
        self.non_variable_name(operand).is_some_and(|name| {
            env()
                .types()
                .find_type(&format!("{name}.{field}"))
                .is_some()
        })
    }

    /// The dotted name `expr` spells, such as `a.b.c`, unless its first
    /// segment is a variable.
    fn non_variable_name(&self, expr: &IdedExpr) -> Option<String> {
        let mut segments = Vec::new();
        let mut current = expr;
        loop {
            match &current.expr {
                Expr::Ident(root) => {
                    if self.is_variable(root) {
                        return None;
                    }
                    segments.push(root.as_str());
                    segments.reverse();
                    return Some(segments.join("."));
                }
                Expr::Select(select) if !select.test => {
                    segments.push(&select.field);
                    current = &select.operand;
                }
                _ => return None,
            }
        }
    }

    fn is_variable(&self, name: &str) -> bool {
        CONSTRAINT_VARIABLES.contains(&name)
            || self
                .loops
                .iter()
                .any(|scope| scope.variables.iter().any(|v| v == name))
    }

    fn node_offset(&self, id: u64) -> usize {
        self.info
            .offset_for(id)
            .map_or(0, |(start, _)| start as usize)
    }

    fn error_at_node(&self, id: u64, message: impl Into<String>) -> ExprError {
        ExprError::at_token(self.text, self.node_offset(id), message)
    }

    /// An error about a call. The parser places calls at their `(`, so the
    /// error points at the name before it.
    fn error_at_call(&self, id: u64, message: impl Into<String>) -> ExprError {
        let paren = self.node_offset(id);
        let offset = identifier_before(self.text, paren).unwrap_or(paren);
        ExprError::at_token(self.text, offset, message)
    }
}

/// The start of the identifier that ends just before `end`, whitespace
/// aside.
fn identifier_before(text: &str, end: usize) -> Option<usize> {
    let before = text.get(..end)?.trim_end();
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_identifier_char(c))
        .last()
        .map(|(at, _)| at)?;
    Some(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::testing::{compile_error, eval};
    use cel::Context;
    use serde_json::json;
    use std::sync::Arc;

    #[test]
    fn unknown_variables_are_located() {
        let text = "'é' == foo.bar";
        let error = compile_error(text);
        assert_eq!(
            error.message,
            "unknown variable `foo`; constraints can use `spec` and `self`"
        );
        assert_eq!((error.offset, error.len), (8, 3));

        let text = "spec.a.exists(x, x > 1) && x > 2";
        let error = compile_error(text);
        assert_eq!((error.offset, error.len), (text.rfind('x').unwrap_or(0), 1));
    }

    #[test]
    fn unknown_functions_are_located() {
        let text = "spec.a.frobnicate(1) && true";
        let error = compile_error(text);
        assert_eq!(error.message, "unknown function `frobnicate`");
        assert_eq!((error.offset, error.len), (7, 10));

        let text = "'é' == lowerAscii (spec.a)";
        let error = compile_error(text);
        assert_eq!((error.offset, error.len), (8, 10));

        let error = compile_error("spec.a.all(x)");
        assert_eq!(error.message, "wrong arguments for the `all` macro");
        assert_eq!(error.offset, 7);
    }

    #[test]
    fn standard_names_are_accepted() {
        for text in [
            "type(spec.a) == int",
            "type(spec.a) != google.protobuf.Duration",
            "optional.of(spec.a).hasValue()",
            "spec.?a.orValue(1) == 1",
            "int(string(spec.a)) + 1 == uint(2) + 0 ? true : false",
            "timestamp('2024-01-01T00:00:00Z').getFullYear() == 2024",
            "duration('1m') < duration('1h') && 'a' in ['a'] && spec.a.startsWith('x')",
        ] {
            assert!(Constraint::compile(text).is_ok(), "{text}");
        }
        assert_eq!(
            eval(
                "type(spec.a) == int && optional.of(spec.a).hasValue()",
                json!({"a": 1})
            ),
            Ok(true)
        );
    }

    /// The list of allowed functions matches what `Env::stdlib` declares: the
    /// context refuses to add a function under a declared name.
    #[test]
    fn allowed_functions_are_declared_by_the_stdlib() {
        let mut context = Context::with_env(Arc::clone(env()));
        for name in STANDARD_FUNCTIONS
            .iter()
            .filter(|name| name.chars().next().is_some_and(char::is_alphabetic))
        {
            assert!(
                context.add_function(name, |a: i64| a).is_err(),
                "`{name}` is not declared"
            );
        }
        for name in ["lowerAscii", "split", "replace", "greatest", "max"] {
            assert!(context.add_function(name, |a: i64| a).is_ok(), "{name}");
        }
    }
}
